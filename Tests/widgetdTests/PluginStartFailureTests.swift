import Formats
import Foundation
import Kind
import Testing

@testable import Daemon
@testable import Providers

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
                (try? daemon.cli(["list"]))?.stdout.contains("kind 'silent' is not loaded: plugin 'silent'") == true
            })
        // `check` stays strict, and says a failed plugin may be the one that provides the kind.
        let check = try daemon.cli(["check"])
        #expect(check.status == 1)
        #expect(
            check.stderr.contains("unknown kind 'bigkind'")
                && check.stderr.contains("a plugin that failed to load may provide it: 'widgetd plugins' says why"),
            "\(check.stderr)")
        let status = try daemon.cli(["status"]).stdout
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

/// `DaemonPlugins` on its own: which kinds stand in for what, and when a failed plugin is tried again.
@Suite("daemon plugins")
struct DaemonPluginsTests {
    private static func failed(_ name: String, lastKind: String? = nil) -> FoundPlugin {
        FoundPlugin(
            source: PluginSource(name: name, argv: ["/bin/false"], origin: "widgets.yaml"),
            error: "exited before its hello",
            lastKind: lastKind)
    }

    private static func loaded(_ name: String, kind: String) throws -> FoundPlugin {
        let hello = try #require(
            try JSONValue.parse(Array(#"{"type":"hello","protocol":1,"kind":{"name":"\#(kind)"}}"#.utf8)).object)
        return FoundPlugin(
            source: PluginSource(name: name, argv: ["/bin/false"], origin: "widgets.yaml"),
            declaration: try PluginDeclaration.parse(hello))
    }

    @Test func aStandInNamesThePluginByItsNameOrTheKindItLastDeclared() {
        let start = Date(timeIntervalSince1970: 1000)
        let plugins = DaemonPlugins(
            standard: KindRegistry([]), found: [Self.failed("slow", lastKind: "tomato"), Self.failed("other")],
            now: start)
        #expect(plugins.reason(for: "tomato") == "plugin 'slow' (widgets.yaml) failed to load: exited before its hello")
        #expect(plugins.reason(for: "other") == "plugin 'other' (widgets.yaml) failed to load: exited before its hello")
        #expect(plugins.reason(for: "typo").hasPrefix("no plugin that loaded provides it, and plugin 'other'"))
        let registry = plugins.registry(standingInFor: ["tomato"])
        #expect(registry.kind(named: "tomato") is UnloadedPluginKind)
        #expect(plugins.registry.kind(named: "tomato") == nil, "the stand-ins are not the daemon's kinds")
    }

    @Test func withNoFailedPluginNothingIsRetried() throws {
        let plugins = DaemonPlugins(standard: KindRegistry([]), found: [try Self.loaded("p", kind: "p")], now: Date())
        #expect(plugins.retryDue == nil)
        #expect(plugins.reason(for: "typo") == "no plugin provides it")
    }

    @Test func failedPluginsAreTriedAgainAtOnceThenLessAndLessOften() throws {
        let start = Date(timeIntervalSince1970: 1000)
        var plugins = DaemonPlugins(standard: KindRegistry([]), found: [Self.failed("slow")], now: start)
        var now = start
        #expect(plugins.retryDue == start)
        var delays: [TimeInterval] = []
        for _ in 0..<8 {
            #expect(plugins.retryStarted() == ["slow"])
            #expect(plugins.retryDue == nil, "no second try while one runs")
            _ = plugins.retried([Self.failed("slow")], now: now)
            let due = try #require(plugins.retryDue)
            delays.append(due.timeIntervalSince(now))
            now = due
        }
        #expect(delays == [10, 20, 40, 80, 160, 300, 300, 300])
        _ = plugins.retryStarted()
        let loaded = plugins.retried([try Self.loaded("slow", kind: "slowkind")], now: now).loaded
        #expect(loaded.map(\.name) == ["slowkind"])
        #expect(plugins.failed.isEmpty && plugins.retryDue == nil)
        #expect(plugins.registry.kind(named: "slowkind") != nil)
    }

    @Test func aPluginThatLoadsWithAKindAlreadyTakenIsRefusedAndNotTriedAgain() throws {
        var plugins = DaemonPlugins(
            standard: KindRegistry([]), found: [try Self.loaded("first", kind: "k"), Self.failed("second")],
            now: Date())
        _ = plugins.retryStarted()
        let retried = plugins.retried([try Self.loaded("second", kind: "k")], now: Date())
        #expect(retried.loaded.isEmpty)
        #expect(retried.refused.map(\.error) == ["declares kind 'k', which another kind already has"])
        #expect(plugins.failed.isEmpty && plugins.retryDue == nil)
    }

    /// A kind that loaded while the running config could not be checked again (widgets.yaml had errors) stays a
    /// stand-in, saying so, until a good check: the stand-ins come first.
    @Test func aKindLoadedSinceStaysAStandInUntilTheConfigIsChecked() throws {
        var plugins = DaemonPlugins(
            standard: KindRegistry([]), found: [Self.failed("slow"), Self.failed("other")], now: Date())
        _ = plugins.retryStarted()
        _ = plugins.retried([try Self.loaded("slow", kind: "slow"), Self.failed("other")], now: Date())
        let registry = plugins.registry(standingInFor: ["slow"])
        let standIn = try #require(registry.kind(named: "slow") as? UnloadedPluginKind)
        #expect(standIn.reason.hasPrefix("its plugin has loaded since"))
        #expect(plugins.registry.kind(named: "slow") is PluginKind, "checked with the real kind")
    }

    /// A clash found at the start is no failure to try again either.
    @Test func aClashAtTheStartIsNotTriedAgain() throws {
        var clash = try Self.loaded("second", kind: "k")
        clash.declaration = nil
        clash.isClash = true
        let plugins = DaemonPlugins(standard: KindRegistry([]), found: [clash], now: Date())
        #expect(plugins.failed.isEmpty && plugins.retryDue == nil)
    }

    @Test func aPluginGoneSinceIsNotTriedAgain() {
        var plugins = DaemonPlugins(standard: KindRegistry([]), found: [Self.failed("gone")], now: Date())
        _ = plugins.retryStarted()
        _ = plugins.retried([], now: Date())
        #expect(plugins.failed.isEmpty && plugins.retryDue == nil)
    }
}
