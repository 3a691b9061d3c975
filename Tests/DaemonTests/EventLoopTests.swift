import Foundation
import Glibc
import System
import TestSupport
import Testing

@testable import Daemon

/// The daemon's loop alone (`EventLoop`): what wakes it, read from its real descriptors, and a deadline passed on a
/// clock the test moves, with no real sleeping.
@Suite(
    "the event loop: wakes for deadlines, results, the FIFO and signals, and for nothing else", .waitsOnThreadsOfItsOwn)
struct EventLoopTests {
    private static let start = Date(timeIntervalSince1970: 2_000_000_000)

    @Test func aDeadlineOnTheTestsClockWakesTheLoopWhenTheClockPassesIt() throws {
        let clock = ManualClock(Self.start)
        let loop = try EventLoop(signals: [], clock: clock)
        // Nothing due yet by the test's clock (and the real timer is armed years ahead): the wait times out, empty.
        let early = try loop.wait(until: Self.start.addingTimeInterval(60), control: nil, timeout: .milliseconds(20))
        #expect(early.isEmpty)
        clock.advance(by: 60)
        let due = try loop.wait(until: Self.start.addingTimeInterval(60), control: nil, timeout: .seconds(10))
        #expect(due.deadline && !due.completions && !due.controlLines)
        #expect(due.now == Self.start.addingTimeInterval(60))
    }

    @Test func withNoDeadlineAndNothingToReadItDoesNotWake() throws {
        let loop = try EventLoop(signals: [])
        #expect(try loop.wait(until: nil, control: nil, timeout: .milliseconds(50)).isEmpty)
    }

    @Test func aWallClockDeadlineFiresTheTimer() throws {
        let loop = try EventLoop(signals: [])
        let wake = try loop.wait(until: Date().addingTimeInterval(0.01), control: nil, timeout: .seconds(10))
        #expect(wake.deadline)
    }

    /// The timer is armed again only when the deadline changes (`EventLoop.armed`): a deadline kept across another
    /// wake-up still fires, and one dropped after another wake-up is disarmed.
    @Test func aDeadlineKeptAcrossAnotherWakeStillFiresAndADroppedOneDoesNot() throws {
        let loop = try EventLoop(signals: [])
        let deadline = Date().addingTimeInterval(0.3)
        loop.wakeup.signal()
        #expect(try loop.wait(until: deadline, control: nil, timeout: .seconds(10)).completions)
        let kept = try loop.wait(until: deadline, control: nil, timeout: .seconds(10))
        #expect(kept.deadline && !kept.completions)
        #expect(kept.now >= deadline)

        loop.wakeup.signal()
        #expect(try loop.wait(until: Date().addingTimeInterval(0.1), control: nil, timeout: .seconds(10)).completions)
        #expect(try loop.wait(until: nil, control: nil, timeout: .milliseconds(300)).isEmpty, "the timer was disarmed")
    }

    /// Deadlines a period apart (a per-second clock's) arm the timer to repeat (`EventLoop.period`): each still wakes
    /// the loop on time, and a deadline off the period after a repeat is armed anew, not missed or fired early.
    @Test func evenlySpacedDeadlinesFireOnTimeAndADeadlineOffThePeriodStillWins() throws {
        let loop = try EventLoop(signals: [])
        let first = Date().addingTimeInterval(0.02)
        for step in 0..<4 {
            let deadline = first.addingTimeInterval(Double(step) * 0.05)
            let wake = try loop.wait(until: deadline, control: nil, timeout: .seconds(10))
            #expect(wake.deadline, "step \(step)")
            #expect(wake.now >= deadline, "step \(step) woke before its deadline")
        }
        // The timer now repeats at 0.05 s; a deadline 0.12 s on must not fire at the repeat 0.05 s on.
        let off = first.addingTimeInterval(0.15 + 0.12)
        let wake = try loop.wait(until: off, control: nil, timeout: .seconds(10))
        #expect(wake.deadline)
        #expect(wake.now >= off, "woke at the old period, not the deadline")
        // Dropped after a repeat: nothing wakes the loop before the old period's next tick has long passed.
        #expect(try loop.wait(until: nil, control: nil, timeout: .milliseconds(150)).isEmpty, "the timer was disarmed")
    }

    @Test func aProviderResultWakesItOnceHoweverManyArrived() throws {
        let loop = try EventLoop(signals: [])
        let wakeup = loop.wakeup  // what provider threads hold: Sendable, unlike the loop
        // All three arrive before the loop looks: a thread preempted between two signals (a loaded machine) would
        // otherwise make the second look see the later ones, which is a second arrival, not a missed coalescing.
        let signalled = DispatchSemaphore(value: 0)
        let thread = Thread {
            for _ in 0..<3 { wakeup.signal() }
            signalled.signal()
        }
        thread.start()
        #expect(signalled.wait(timeout: .now() + 10) == .success)
        #expect(try loop.wait(until: nil, control: nil, timeout: .seconds(10)).completions)
        #expect(try loop.wait(until: nil, control: nil, timeout: .milliseconds(20)).isEmpty, "drained")
    }

    @Test func aReadableControlDescriptorIsReportedNotRead() throws {
        let loop = try EventLoop(signals: [])
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(write(ends[1], "reload all\n", 11) == 11)
        let wake = try loop.wait(until: nil, control: ends[0], timeout: .seconds(10))
        #expect(wake.controlLines && !wake.completions)
        var byte: UInt8 = 0
        #expect(read(ends[0], &byte, 1) == 1, "the line is left for the FIFO's reader")
    }

    @Test func fileEventsComeWithTheWake() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let loop = try EventLoop(signals: [])
        let watch = try loop.watcher.watch(directory: directory.url.path, mask: [.closeWrite])
        _ = try directory.write("widgets.yaml", "widgets: {}\n")
        let wake = try loop.wait(until: nil, control: nil, timeout: .seconds(10))
        #expect(wake.fileEvents.contains { $0.watch == watch })
    }
}
