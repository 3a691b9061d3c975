import Foundation
import Testing

@testable import Runtime

/// Issue 10, item 8: each source's log lines are rate limited.
@Suite("log limits")
struct LogRateLimiterTests {
    private static let start = Date(timeIntervalSince1970: 1_000_000)
    private static func line(_ text: String) -> LogRateLimiter.Line { .init(level: .warning, text: text) }

    @Test func aBurstIsLoggedThenCountedAndSummedUpWhenTheWindowEnds() {
        var limiter = LogRateLimiter(burst: 3, window: 5)
        var logged: [String] = []
        for index in 0..<1000 {
            let now = Self.start.addingTimeInterval(Double(index) * 0.001)
            logged += limiter.admit(Self.line("bad line \(index)"), from: "control FIFO", now: now).map(\.text)
        }
        #expect(logged == ["bad line 0", "bad line 1", "bad line 2"])
        #expect(limiter.nextDeadline == Self.start.addingTimeInterval(5))
        #expect(limiter.flush(now: Self.start.addingTimeInterval(4.9)).isEmpty)
        #expect(
            limiter.flush(now: Self.start.addingTimeInterval(5)).map(\.text) == [
                "control FIFO: 997 more lines not logged (at most 3 every 5 s); the last: bad line 999"
            ])
        #expect(limiter.nextDeadline == nil)
        // A new window starts with a new burst.
        #expect(
            limiter.admit(Self.line("next"), from: "control FIFO", now: Self.start.addingTimeInterval(6)).count == 1)
    }

    @Test func repeatsOfOneLineBecomeACount() {
        var limiter = LogRateLimiter(burst: 3, window: 5)
        var logged: [String] = []
        for index in 0..<5124 {
            let now = Self.start.addingTimeInterval(Double(index) * 0.0001)
            logged += limiter.admit(Self.line("same"), from: "control FIFO", now: now).map(\.text)
        }
        #expect(logged == ["same"])
        #expect(limiter.flush(now: Self.start.addingTimeInterval(5)).map(\.text) == ["same (repeated 5123 times)"])
        // A different line ends the run of repeats at once.
        _ = limiter.admit(Self.line("a"), from: "s", now: Self.start.addingTimeInterval(10))
        _ = limiter.admit(Self.line("a"), from: "s", now: Self.start.addingTimeInterval(10))
        #expect(
            limiter.admit(Self.line("b"), from: "s", now: Self.start.addingTimeInterval(10)).map(\.text) == [
                "a (repeated 1 time)", "b",
            ])
    }

    /// A line that comes again after a pause is logged when it comes: three timeouts of one widget in a window were
    /// held and logged together at its end, each up to five seconds late. Within a second of the last, it is counted.
    @Test func repeatsWithinTheLimitAreLoggedWhenTheyCome() {
        var limiter = LogRateLimiter(burst: 10, window: 5)
        for second in [0.0, 2.0, 3.0] {
            let logged = limiter.admit(
                Self.line("slow: timed out"), from: "slow", now: Self.start.addingTimeInterval(second))
            #expect(logged.map(\.text) == ["slow: timed out"])
        }
        #expect(limiter.nextDeadline == nil)
        #expect(
            limiter.admit(Self.line("slow: timed out"), from: "slow", now: Self.start.addingTimeInterval(3.5)).isEmpty)
        // After a pause again: the quick repeat's count, then the line, when it comes.
        #expect(
            limiter.admit(Self.line("slow: timed out"), from: "slow", now: Self.start.addingTimeInterval(4.5)).map(
                \.text)
                == ["slow: timed out (repeated 1 time)", "slow: timed out"])
        #expect(limiter.flush(now: Self.start.addingTimeInterval(5)).isEmpty)
    }

    @Test func theNextDeadlineComesFromHeldBackLinesOnlyAndIsNeverLate() {
        var limiter = LogRateLimiter(burst: 1, window: 5)
        // A thousand widgets that each logged once hold nothing back: no summary is due.
        for index in 0..<1000 {
            _ = limiter.admit(Self.line("started"), from: "w\(index)", now: Self.start)
        }
        #expect(limiter.nextDeadline == nil)
        _ = limiter.admit(Self.line("again"), from: "w7", now: Self.start.addingTimeInterval(1))
        #expect(limiter.nextDeadline == Self.start.addingTimeInterval(5))
        // The source's next line after its window summarises it at once; the deadline then left may be early, and the
        // flush it causes finds nothing and clears it.
        let late = limiter.admit(Self.line("later"), from: "w7", now: Self.start.addingTimeInterval(6)).map(\.text)
        #expect(late.count == 2)
        if let due = limiter.nextDeadline { #expect(due <= Self.start.addingTimeInterval(6)) }
        #expect(limiter.flush(now: Self.start.addingTimeInterval(6)).isEmpty)
        #expect(limiter.nextDeadline == nil)
    }

    @Test func sourcesAreLimitedSeparately() {
        var limiter = LogRateLimiter(burst: 1, window: 5)
        #expect(limiter.admit(Self.line("x1"), from: "x", now: Self.start).count == 1)
        #expect(limiter.admit(Self.line("x2"), from: "x", now: Self.start).isEmpty)
        #expect(limiter.admit(Self.line("y1"), from: "y", now: Self.start).count == 1)
        // A summary due but not flushed yet comes before the source's next line.
        let late = limiter.admit(Self.line("x3"), from: "x", now: Self.start.addingTimeInterval(7)).map(\.text)
        #expect(late == ["x: 1 more lines not logged (at most 1 every 5 s); the last: x2", "x3"])
    }

    /// Two lines in turn, each repeated at once (a plugin's log line, then its pushed reload): the counts of the repeats
    /// are lines too, so a window still logs at most its burst, and its summary counts every line held back.
    @Test func theCountsOfRepeatsAreWithinTheBurst() {
        var limiter = LogRateLimiter(burst: 10, window: 5)
        var logged: [String] = []
        var sent = 0
        for step in 0..<200 {
            let now = Self.start.addingTimeInterval(Double(step) * 0.02)
            let text = step / 2 % 2 == 0 ? "a" : "b"
            logged += limiter.admit(Self.line(text), from: "p", now: now).map(\.text)
            sent += 1
        }
        #expect(logged.count <= 10, "\(logged)")
        let summary = limiter.flush(now: Self.start.addingTimeInterval(6)).map(\.text)
        #expect(summary.count == 1, "\(summary)")
        let held = Int(summary.first?.split(separator: " ")[1] ?? "") ?? 0
        let counted = logged.reduce(0) { total, line in
            guard let range = line.range(of: "(repeated ") else { return total + 1 }
            return total + (Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0)
        }
        #expect(counted + held == sent, "\(logged) \(summary)")
    }
}
