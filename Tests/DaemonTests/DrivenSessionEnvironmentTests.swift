import Foundation
import Glibc
import TestSupport
import Testing

/// A click's command gets the session's display, on the daemon in the test's process (`DrivenDaemon`), whose
/// environment is the test's: a daemon "under systemd" (INVOCATION_ID) whose PATH finds a fake systemctl printing the
/// manager's environment, and a right click that writes what its command sees.
@Suite("on_click commands get the session's display, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenSessionEnvironmentTests {
    func clickSees(daemonDisplay: String?) throws -> String {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bin = directory.url.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let systemctl = try directory.write(
            "bin/systemctl",
            "#!/bin/sh\n[ \"$*\" = '--user show-environment' ] || exit 1\n"
                + "printf '%s\\n' 'DISPLAY=:42' 'XAUTHORITY=/tmp/x y' \"WAYLAND_DISPLAY=\\$'odd'\" 'OTHER=1'\n")
        chmod(systemctl, 0o755)
        let seen = directory.url.path + "/seen"
        let config = """
            widgets:
              quote:
                kind: quotes
                on_click:
                  right: [sh, -c, 'echo "$DISPLAY|$XAUTHORITY|$WAYLAND_DISPLAY|$OTHER" > \(seen)']

            """
        var environment = ["INVOCATION_ID": "0123", "PATH": bin + ":/usr/bin:/bin"]
        if let daemonDisplay { environment["DISPLAY"] = daemonDisplay }
        let driven = try DrivenDaemon(config: config, adding: environment)
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        let click = driven.commandTakingTurns(["click", "quote", "--button", "3", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(
            driven.turns(until: "the click's output") {
                (try? String(contentsOfFile: seen, encoding: .utf8))?.hasSuffix("\n") == true
            })
        return try String(contentsOfFile: seen, encoding: .utf8)
    }

    @Test("A daemon started before the session takes DISPLAY and XAUTHORITY from the user manager at click time")
    func importsFromTheManager() throws {
        #expect(try clickSees(daemonDisplay: nil) == ":42|/tmp/x y||\n")
    }

    @Test("A daemon with a display of its own passes its environment as it is")
    func keepsItsOwnDisplay() throws {
        #expect(try clickSees(daemonDisplay: ":7") == ":7|||\n")
    }
}
