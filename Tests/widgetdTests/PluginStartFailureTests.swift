import Foundation
import TestSupport
import Testing

/// A plugin that fails to load when the daemon starts (silent past its deadline, a hello over 1 MiB, a hello too late)
/// costs its own widgets and nothing else (docs/PLUGINS.md, "When a plugin fails"): the daemon runs the rest, its
/// widgets show a placeholder with the reason, and it is tried again until it says hello.
@Suite("plugins that fail to load at start", .spawnsDaemons)
struct PluginStartFailureTests {
    /// The plain text a widget shows, without its newline.
    private static func shown(_ daemon: DaemonUnderTest, _ name: String) -> String? {
        daemon.read(name + ".plain").map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
    }

    @Test(.aheadInLine) func aSilentPluginAndAnOversizedHelloStopNeitherTheDaemonNorItsOtherWidgets() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let silent = try directory.write("silent.py", "import time\ntime.sleep(300)\n")
        let oversized = try directory.write(
            "big.py",
            "import sys\nsys.stdout.write('{\"type\":\"hello\",\"x\":\"' + 'x' * (2 << 20) + '\"}\\n')\n"
                + "sys.stdout.flush()\nimport time\ntime.sleep(300)\n")
        let daemon = try DaemonUnderTest(
            config: """
                plugins:
                  silent: [/usr/bin/python3, \(silent)]
                  big: [/usr/bin/python3, \(oversized)]
                widgets:
                  q:
                    kind: quotes
                    output: [plain]
                  c:
                    kind: clock
                    output: [plain]
                  s:
                    kind: silent
                    output: [plain, i3blocks]
                    on_click: {left: toggle}
                  b:
                    kind: bigkind
                    output: [plain]
                """, reusing: directory)
        defer { daemon.stop() }
        await DaemonGate.giveBackTurn()  // the start waits 3 s for the silent plugin, sleeping
        #expect(await daemon.waitFor("the built-in widgets", timeout: .seconds(15)) { Self.shown(daemon, "c") != nil })
        #expect(Self.shown(daemon, "q")?.isEmpty == false)
        #expect(Self.shown(daemon, "s") == "silent: not loaded")
        #expect(Self.shown(daemon, "b") == "bigkind: not loaded")
        #expect(daemon.process.isRunning)
        let log = daemon.log
        #expect(
            log.contains("plugin 'silent' (widgets.yaml) failed to load: said no hello within 3 s"), "\(log)")
        #expect(
            log.contains("plugin 'big' (widgets.yaml) failed to load: its first line is longer than 1 MiB"), "\(log)")
        // The widget of a kind named after no plugin is told which plugins failed, since one of them may provide it.
        #expect(log.contains("b: kind 'bigkind' is not loaded (no plugin that loaded provides it, and plugin 'big'"))
        // The stale block carries the reason, as any failing widget's does.
        #expect(
            await daemon.waitFor("the reason in the status") {
                (try? daemon.cliBlocking(["list"]))?.stdout.contains("kind 'silent' is not loaded: plugin 'silent'")
                    == true
            })
        // `check` stays strict, and says a failed plugin may be the one that provides the kind.
        let check = try await daemon.cli(["check"])
        #expect(check.status == 1)
        #expect(
            check.stderr.contains("unknown kind 'bigkind'")
                && check.stderr.contains("a plugin that failed to load may provide it: 'widgetd plugins' says why"),
            "\(check.stderr)")
        let status = try await daemon.cli(["status"]).stdout
        #expect(status.contains("but the daemon runs it: widgets whose plugin failed to load wait for it"), "\(status)")
    }

    /// A plugin that failed at the start (here silent on its first run only: a cold cache at login) is tried again at
    /// once, with a longer wait: its widgets go from the placeholder to its answer, and a kind named otherwise than
    /// its plugin is named meanwhile with the plugin it waits for.
    @Test(.aheadInLine) func aPluginThatFailsAtTheStartIsLoadedOnTheNextTry() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let late = try directory.write(
            "late.py",
            """
            import json, os, sys, time
            marker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ran-once")
            if not os.path.exists(marker):
                open(marker, "w").close()
                time.sleep(300)
            print(json.dumps({"type": "hello", "protocol": 1, "kind": {"name": "latekind"}}), flush=True)
            for line in sys.stdin:
                request = json.loads(line)
                print(json.dumps({"id": request["id"], "entries": [{"text": "at last"}], "policy": "never"}), flush=True)

            """)
        let daemon = try DaemonUnderTest(
            config: """
                plugins:
                  late: [/usr/bin/python3, \(late)]
                widgets:
                  c:
                    kind: clock
                    output: [plain]
                  l:
                    kind: latekind
                    timeout: 10s
                    output: [plain]
                """, reusing: directory)
        defer { daemon.stop() }
        await DaemonGate.giveBackTurn()  // the start's 3 s wait for a sleeping plugin
        #expect(
            await daemon.waitFor("the placeholder", timeout: .seconds(15)) {
                daemon.log.contains(
                    "l: kind 'latekind' is not loaded (no plugin that loaded provides it, and plugin 'late'")
            })
        #expect(
            await daemon.waitFor("the plugin's answer", timeout: .seconds(30)) { Self.shown(daemon, "l") == "at last" })
        #expect(daemon.log.contains("plugin 'late' loaded: kind 'latekind'"), "\(daemon.log)")
    }
}
