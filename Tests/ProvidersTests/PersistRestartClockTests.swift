import Foundation
import Glibc
import Kind
import Synchronization
import Testing
import Timelines

@testable import Providers

/// A persistent command's restart pauses on the clock it is given (the daemon's), not on the wall clock: a daemon
/// on a test's clock restarts it when the test moves the time.
@Suite("Persist restarts on the daemon's clock")
struct PersistRestartClockTests {
    /// A clock standing at `now` that notes each wait's deadline; the first waits pass at once, the last until the
    /// command is stopped.
    final class NotingClock: SessionClock, @unchecked Sendable {
        let now: Date
        let deadlines = Mutex<[Date]>([])
        let waited = DispatchSemaphore(value: 0)
        private let passing: Int

        init(now: Date, passing: Int) {
            self.now = now
            self.passing = passing
        }

        func wait(until deadline: Date, orUntilReadable descriptor: Int32) -> Bool {
            let count = deadlines.withLock {
                $0.append(deadline)
                return $0.count
            }
            waited.signal()
            guard count > passing else { return false }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&ready, 1, -1) > 0
        }

        func pollTimeout(until deadline: Date) -> Int32 {
            deadline > now ? -1 : 0
        }
    }

    @Test func aCommandThatExitsIsStartedAgainAfterPausesCountedOnItsClock() throws {
        let start = Date(timeIntervalSince1970: 2_000_000_000)
        let clock = NotingClock(now: start, passing: 2)
        let reasons = Mutex<[String]>([])
        let command = try PersistentCommand(
            argv: ["sh", "-c", "exit 3"], environment: ["PATH": "/usr/bin:/bin"], printsJSON: false,
            parse: { line, now in
                Timeline(entries: [TimelineEntry(date: now, content: EntryContent(text: line))], policy: .never)
            },
            clock: clock,
            updates: { update in
                if case .stopped(let reason) = update { reasons.withLock { $0.append(reason) } }
            })
        defer { command.stop() }
        for _ in 0..<3 { #expect(clock.waited.wait(timeout: .now() + 10) == .success) }
        // Twice as long each time, from when it ended on the clock.
        #expect(clock.deadlines.withLock { $0 } == [1, 2, 4].map { start.addingTimeInterval($0) })
        #expect(
            reasons.withLock { $0 } == [1, 2, 4].map { "exited with status 3; starting it again in \($0) s" })
    }
}
