import Foundation
import Testing

/// Issue 37, item 4: `--wait` tells the truth. `click --wait` and `intent --wait` print what the widget shows once the
/// daemon confirmed, and exit 1 with the reason when nothing happened; `reload --wait` prints what each widget reloaded
/// shows now. Here a click whose program the daemon starts and which fails; what the commands print on success is
/// DaemonTests' `DrivenWaitOutcomeTests`.
@Suite("--wait says what happened", .spawnsDaemons)
struct WaitOutcomeTests {
    static let config = """
        widgets:
          clock:
            kind: clock
          quote:
            kind: quotes
          todos:
            kind: todos
            on_click:
              right: [xdotool, getmouselocation]
          missing:
            kind: quotes
            on_click:
              right: [widgetd-no-such-program]

        """

    static func started(_ daemon: DaemonUnderTest) async -> Bool {
        await daemon.waitFor("the first timelines") {
            ["clock", "quote", "todos", "missing"].allSatisfy(daemon.hasTimeline)
        }
    }

    @Test func aRightClickWhoseProgramHasNoDisplayFailsNamingIt() async throws {
        // The daemon's environment names no display (DaemonUnderTest passes none), as at a login before the session.
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(await Self.started(daemon))
        let click = try daemon.cli(["click", "todos", "--button", "3", "--wait"])
        #expect(click.status == 1)
        #expect(
            click.stderr.hasPrefix("widgetd: error: todos: right click: xdotool exited with status 1"),
            "\(click.stderr)")
        #expect(click.stderr.contains("no display"))
        let missing = try daemon.cli(["click", "missing", "--button", "3", "--wait"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("widgetd-no-such-program"), "\(missing.stderr)")
    }

}
