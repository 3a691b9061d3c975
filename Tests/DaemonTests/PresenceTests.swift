import Foundation
import Testing

@testable import Daemon
@testable import Runtime

/// What the daemon tells systemd and the CLI, and when the watchdog's keep-alive is due (`Presence`, `Watchdog`): the
/// wall clock is a `ManualClock` and the monotonic one instants the test picks, so the keep-alive's timing is seen with
/// no daemon, socket or sleeping. The messages on a real socket are `SystemdServiceTests`'.
@Suite("presence: systemd's messages and the watchdog's timing")
struct PresenceTests {
    private static let start = Date(timeIntervalSince1970: 2_000_000_000)

    /// A watchdog of `WATCHDOG_USEC` 200 ms (a keep-alive every 100 ms), started at `origin`.
    private static func presence(at origin: ContinuousClock.Instant) throws -> Presence {
        let watchdog = try #require(Watchdog(environment: ["WATCHDOG_USEC": "200000"], pid: 7, at: origin))
        return Presence(startedAt: start, watchdog: watchdog)
    }

    @Test func theKeepAliveIsDueEveryHalfOfTheInterval() throws {
        let origin = ContinuousClock.now
        var presence = try Self.presence(at: origin)
        let clock = ManualClock(Self.start)
        #expect(presence.keepAliveDue(now: clock.now, at: origin) == Self.start + 0.1)
        let early = presence.keepAlive(at: origin.advanced(by: .milliseconds(99)))
        #expect(early == nil)
        clock.advance(by: 0.1)
        let first = presence.keepAlive(at: origin.advanced(by: .milliseconds(100)))
        #expect(first == ["WATCHDOG=1"])
        let again = presence.keepAlive(at: origin.advanced(by: .milliseconds(150)))
        #expect(again == nil, "sent: the next is half an interval later")
        #expect(presence.keepAliveDue(now: clock.now, at: origin.advanced(by: .milliseconds(100))) == clock.now + 0.1)
        let second = presence.keepAlive(at: origin.advanced(by: .milliseconds(200)))
        #expect(second == ["WATCHDOG=1"])
    }

    /// The keep-alive is timed on the monotonic clock: the wall clock set back an hour does not hold it back an hour,
    /// and one overdue is due at once.
    @Test func aWallClockSetBackDoesNotHoldTheKeepAliveBack() throws {
        let origin = ContinuousClock.now
        let presence = try Self.presence(at: origin)
        let clock = ManualClock(Self.start)
        clock.advance(by: -3600)
        #expect(presence.keepAliveDue(now: clock.now, at: origin.advanced(by: .milliseconds(40))) == clock.now + 0.06)
        #expect(presence.keepAliveDue(now: clock.now, at: origin.advanced(by: .seconds(5))) == clock.now)
    }

    @Test func withNoWatchdogNothingIsDue() {
        var presence = Presence(startedAt: Self.start, watchdog: nil)
        #expect(presence.keepAliveDue(now: Self.start) == nil)
        let keepAlive = presence.keepAlive()
        #expect(keepAlive == nil)
    }

    @Test func aReloadWithErrorsIsSaidUntilOneWithout() {
        var presence = Presence(startedAt: Self.start, watchdog: nil)
        #expect(
            presence.ready(widgets: 3, configPath: "/c/widgets.yaml", pid: 42)
                == ["READY=1", "STATUS=3 widgets", "MAINPID=42"])
        let refused = presence.reloaded(errors: 2, widgets: 3, configPath: "/c/widgets.yaml")
        #expect(
            refused == ["READY=1", "STATUS=3 widgets; /c/widgets.yaml has 2 errors, running the previous config"])
        #expect(presence.configErrors == 2)
        #expect(presence.state(pid: 42, config: "/c/widgets.yaml", output: "/o", store: "/s").configErrors == 2)
        let applied = presence.reloaded(errors: 0, widgets: 1, configPath: "/c/widgets.yaml")
        #expect(applied == ["READY=1", "STATUS=1 widget"])
        #expect(presence.state(pid: 42, config: "/c/widgets.yaml", output: "/o", store: "/s").configErrors == 0)
    }

    @Test func theStateFileSaysWhenTheDaemonStartedOnItsClock() {
        let presence = Presence(startedAt: Self.start, watchdog: nil)
        let state = presence.state(pid: 42, config: "/c/widgets.yaml", output: "/o", store: "/s")
        #expect(state.pid == 42 && state.config == "/c/widgets.yaml" && state.output == "/o" && state.store == "/s")
        #expect(state.startedAt.hasPrefix("2033-05-1"), "\(state.startedAt)")
    }

    @Test func aReloadIsToldWithItsMonotonicTime() {
        #expect(Presence.reloading(monotonicMicroseconds: 123) == ["RELOADING=1", "MONOTONIC_USEC=123"])
        #expect(Presence.stopping == ["STOPPING=1"])
    }
}
