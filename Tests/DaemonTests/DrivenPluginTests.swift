import Foundation
import Glibc
import TestSupport
import Testing

/// Plugins served by the daemon in the test's process (`DrivenDaemon`): real plugin processes (the test plugin of
/// TestSupport's `FakePlugin.swift`), whose answers and pushed lines wake the loop's turns. Restarts and timeouts are
/// `DrivenPluginRestartTests`' and `DrivenSupervisionTests`', floods `DrivenPluginFloodTests`'. What depends on real
/// time stays in widgetdTests' `PluginEndToEndTests` and `PluginStartFailureTests`: a hello waited for on the wall
/// clock.
@Suite("plugins, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenPluginTests {
    @Test func aClickRunsThePluginsIntentAndTheWidgetReloads() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try DrivenDaemon(
            fakePlugin: "count", in: directory, widgets: "  w:\n    kind: fake\n    output: [plain]")
        #expect(driven.turns(until: "the first timeline") { driven.shown("w")?.hasPrefix("n=1 ") == true })
        let click = driven.commandTakingTurns(["click", "w", "--button", "1", "--wait"])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(
            driven.turns(until: "the reload after the intent") {
                driven.shown("w")?.hasPrefix("n=2 poked=left ") == true
            }, "\(driven.log)")
        #expect(fakePluginLines(in: directory).contains("intent w"))
    }

    @Test func garbageAndATenMegabyteLineAreSkippedAndTheReplyStillLands() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try DrivenDaemon(
            fakePlugin: "garbage", in: directory, widgets: "  w:\n    kind: fake\n    output: [plain]")
        #expect(
            driven.turns(until: "the reply after the garbage") { driven.shown("w")?.hasPrefix("n=1 ") == true },
            "\(driven.log)")
        let log = driven.log
        #expect(log.contains("sent a line that is not a JSON object: 'not json at all'"))
        #expect(log.contains("sent a line that is not UTF-8 (JSON must be)"), "\(log)")
        #expect(log.contains("sent a line longer than 1024 KiB; skipped"))
        #expect(log.contains("answered request 999999 late or twice"))
        #expect(!log.contains("restarted"), "a few bad lines do not restart it")
        #expect(driven.commandTakingTurns(["reload", "w", "--wait"]).status == 0)
        #expect(
            driven.turns(until: "the second reply") { driven.shown("w")?.hasPrefix("n=2 ") == true },
            "\(driven.log)")
    }

    /// A reply over the 1 MiB a plugin's line may hold is dropped, and the request it answered fails at once saying so:
    /// the widget's error is the reason, not a timeout. Neither deadline can pass first, since the daemon's clock, on
    /// which both pass, stands still.
    @Test func aReplyLongerThanALineMayBeFailsItsRequestAtOnceSayingSo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try DrivenDaemon(
            fakePlugin: "huge-reply", in: directory, widgets: "  w:\n    kind: fake\n    output: [plain]")
        let lastError = { driven.command(["list"]).stdout.split(separator: "\n").last { $0.hasPrefix("w ") } ?? "" }
        #expect(
            driven.turns(until: "the reply's error", within: 10) {
                lastError().contains("replied with a line longer than 1024 KiB; skipped")
            }, "\(driven.log)")
        #expect(driven.log.contains("with a line longer than 1024 KiB; skipped"), "\(driven.log)")
        #expect(!driven.log.contains("did not answer in time"), "\(driven.log)")
    }

    /// Two widgets of the fake plugin's kind, `w` and `other`, each written as plain text.
    private static let twoWidgets =
        "  w:\n    kind: fake\n    output: [plain]\n  other:\n    kind: fake\n    output: [plain]"

    @Test func requestsArePipelinedAndAnsweredInAnyOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The plugin answers nothing until two requests are in flight at once, then answers the later one first.
        let driven = try DrivenDaemon(
            fakePlugin: "reverse", in: directory,
            widgets: Self.twoWidgets)
        #expect(
            driven.turns(until: "both answers") {
                driven.shown("w") == "answered w" && driven.shown("other") == "answered other"
            }, "\(driven.log)")
        #expect(
            fakePluginLines(in: directory).filter { $0 == "hello" }.count == 2,
            "one process served both (and the daemon's probe ran once)")
    }

    @Test func aPushedReloadReachesTheOutput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try DrivenDaemon(
            fakePlugin: "push", in: directory,
            widgets: Self.twoWidgets)
        #expect(
            driven.turns(until: "the first timelines") {
                driven.shown("w")?.hasPrefix("n=") == true && driven.shown("other")?.hasPrefix("n=") == true
            }, "\(driven.log)")
        let requests = { fakePluginLines(in: directory).filter { $0 != "hello" } }
        let before = requests().count
        _ = try directory.write("trigger", "")
        #expect(
            driven.turns(until: "the pushed reload") {
                requests().count == before + 1 && driven.shown("w")?.hasPrefix("n=3 ") == true
            }, "\(driven.log)")
        #expect(requests().last == "timeline w", "only the named instance reloads")
    }

    /// A driven daemon on `config`, whose `$PLUGIN` is the shell plugin `script` written into `directory`.
    private static func daemon(plugin script: String, in directory: TemporaryDirectory, config: String) throws
        -> DrivenDaemon
    {
        let plugin = try directory.write("plugin", script)
        chmod(plugin, 0o755)
        return try DrivenDaemon(config: config.replacingOccurrences(of: "$PLUGIN", with: plugin))
    }

    @Test func anIntentWithParametersReachesThePomodoroPlugin() throws {
        let pomodoro = contribPlugin("pomodoro")
        let driven = try DrivenDaemon(
            config: """
                plugins:
                  pomodoro: [/usr/bin/python3, \(pomodoro)]
                widgets:
                  tomato:
                    kind: pomodoro
                    intent: {work: 2m, label: T}
                    output: [plain]
                """)
        #expect(driven.turns(until: "the idle timer") { driven.shown("tomato") == "T 02:00" }, "\(driven.log)")
        let bad = driven.command(["intent", "tomato", "start", "minutes=0", "--wait"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("0 is out of range for 'minutes'; expected 1 to 600"), "\(bad.stderr)")
        #expect(driven.commandTakingTurns(["intent", "tomato", "start", "minutes=45", "--wait"]).status == 0)
        #expect(driven.commandTakingTurns(["intent", "tomato", "pause", "--wait"]).status == 0)
        #expect(
            driven.turns(until: "the paused timer") {
                driven.shown("tomato")?.hasPrefix("T 44:5") == true
                    || driven.shown("tomato")?.hasPrefix("T 45:00") == true
            }, "\(driven.shown("tomato") ?? "")")
    }

    /// The shipped pomodoro plugin's timer started by a click: "T " and the daemon's own countdown (mm:ss), ticking
    /// with no further call as the clock moves; a right click resets it.
    @Test func thePomodoroPluginStartsItsTimerOnAClick() throws {
        let driven = try DrivenDaemon(
            config: """
                plugins:
                  pomodoro: [/usr/bin/python3, \(contribPlugin("pomodoro"))]
                widgets:
                  tomato:
                    kind: pomodoro
                    intent: {work: 2m, label: T}
                    output: [plain]
                """)
        #expect(driven.turns(until: "the idle timer") { driven.shown("tomato") == "T 02:00" }, "\(driven.log)")
        #expect(driven.commandTakingTurns(["click", "tomato", "--button", "1", "--wait"]).status == 0)
        driven.advance(by: 1)
        // One space between the label and the countdown, as a paused timer shows it ("T 02:00").
        #expect(
            driven.turns(until: "the running timer") {
                driven.shown("tomato")?.wholeMatch(of: /T [0-9]{2}:[0-9]{2}/) != nil
                    && driven.shown("tomato") != "T 02:00"
            }, "\(driven.shown("tomato") ?? "") \(driven.log)")
        #expect(driven.commandTakingTurns(["click", "tomato", "--button", "3", "--wait"]).status == 0)
        #expect(driven.turns(until: "the reset timer") { driven.shown("tomato") == "T 02:00" })
    }

    /// A plugin's `log` lines are limited as other outsiders' are (daemon.md, "Limits"): ten per 5 s, then one line
    /// with the count of the rest. A chatty plugin wrote every line to the journal.
    @Test func aPluginsLogLinesAreLimited() throws {
        let chatty = """
            #!/bin/sh
            echo '{"type":"hello","protocol":1,"kind":{"name":"chatty"}}'
            i=0
            while [ $i -lt 50 ]; do
              echo "{\\"type\\":\\"log\\",\\"level\\":\\"warning\\",\\"message\\":\\"feed down $i\\"}"
              i=$((i+1))
            done
            while IFS= read -r request; do
              id=$(printf '%s\\n' "$request" | sed -n 's/.*"id":\\([0-9]*\\).*/\\1/p')
              echo "{\\"id\\":$id,\\"entries\\":[{\\"text\\":\\"c\\"}]}"
            done

            """
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try Self.daemon(
            plugin: chatty, in: directory,
            config: "plugins:\n  chatty: [$PLUGIN]\nwidgets:\n  c:\n    kind: chatty\n    output: [plain]\n")
        // Its answer comes after its 50 lines, on the same pipe.
        #expect(driven.turns(until: "the answer") { driven.shown("c") == "c" }, "\(driven.log)")
        #expect(!driven.log.contains("more lines not logged"), "counted only when the window ends: \(driven.log)")
        driven.advance(by: 5)
        #expect(
            driven.log.contains("more lines not logged (at most 10 every 5 s); the last: plugin chatty: feed down 49"),
            "\(driven.log)")
        // Ten lines of the plugin's in the window, its host's notes among them; the rest counted.
        let logged = driven.log.split(separator: "\n").filter { $0.contains("feed down") && !$0.contains("not logged") }
        #expect((1...10).contains(logged.count), "\(driven.log)")
    }

    /// A plugin that says hello and never answers, with more widgets than the shared lane has slots: its calls wait
    /// in a lane of their own (`ProviderLane.plugins`), so a quote's reload is not queued behind them until their
    /// timeouts (30 s here, past the CLI's 10 s wait).
    @Test func aDeafPluginHoldsUpNoBuiltInWidget() throws {
        let deaf =
            "#!/bin/sh\necho '{\"type\":\"hello\",\"protocol\":1,\"kind\":{\"name\":\"deaf\"}}'\nexec sleep 120\n"
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let widgets = (0..<40).map { "  d\($0):\n    kind: deaf\n    timeout: 30s\n" }.joined()
        let driven = try Self.daemon(
            plugin: deaf, in: directory,
            config: "plugins:\n  deaf: [$PLUGIN]\nwidgets:\n  quote:\n    kind: quotes\n" + widgets)
        #expect(driven.turns(until: "the quote") { driven.hasTimeline("quote") })
        let reload = driven.commandTakingTurns(["reload", "quote", "--wait"])
        #expect(reload.status == 0, "\(reload.stderr)")
    }

    /// A plugin that closes its output and lives on is stopped, and said so: "exited with status 143" hid that the
    /// daemon had ended it.
    @Test func aPluginThatClosesItsOutputIsSaidToBeStopped() throws {
        let mute =
            "#!/bin/sh\necho '{\"type\":\"hello\",\"protocol\":1,\"kind\":{\"name\":\"mute\"}}'\nexec >&-\nexec sleep 120\n"
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try Self.daemon(
            plugin: mute, in: directory, config: "plugins:\n  mute: [$PLUGIN]\nwidgets:\n  m:\n    kind: mute\n")
        #expect(
            driven.turns(until: "the stop in the log") {
                driven.log.contains("plugin mute: closed its output; stopped it")
            }, "\(driven.log)")
        #expect(!driven.log.contains("exited with status 143"))
    }

    /// A plugin that closes its standard input and lives on is stopped at the first request that cannot reach it, and
    /// said so. Its thread polled the failed write end at full speed until the plugin was taken as hung, and for ever
    /// if the plugin went on sending replies.
    @Test func aPluginThatClosesItsInputIsStoppedAtTheNextRequest() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let driven = try DrivenDaemon(
            fakePlugin: "closes-input", in: directory, widgets: "  w:\n    kind: fake\n    output: [plain]")
        #expect(driven.turns(until: "the first timeline") { driven.shown("w")?.hasPrefix("n=1 ") == true })
        let reload = driven.commandTakingTurns(["reload", "w", "--wait"])
        #expect(reload.status == 1)
        #expect(reload.stderr.contains("closed its standard input; stopped it"), "\(reload.stderr)")
        #expect(driven.log.contains("closed its standard input; stopped it; starting it again in"), "\(driven.log)")
        #expect(driven.shown("w")?.hasPrefix("n=1 ") == true, "the last good entry stays")
    }

    /// The daemon knows the plugin kinds found when it started; `check` and `status` look afresh. A config that uses
    /// a plugin installed since is refused by the daemon, which says a restart is needed, and `status` says the
    /// daemon refused what checks here, instead of sending the user to `check`, which finds nothing.
    @Test func aPluginInstalledAfterTheStartAsksForARestart() throws {
        let driven = try DrivenDaemon(config: "widgets:\n  quote:\n    kind: quotes\n")
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        let plugins = driven.directory.url.path + "/data/widgetd/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: contribPlugin("loadavg"), toPath: plugins + "/loadavg")
        try driven.editConfig("widgets:\n  quote:\n    kind: quotes\n  load:\n    kind: loadavg\n")
        #expect(
            driven.turns(until: "the refusal") {
                driven.log.contains("plugin kinds are found when widgetd starts: restart it to use one added since")
            }, "\(driven.log)")
        let status = driven.command(["status"])
        #expect(
            status.stdout.contains(
                "(OK, 2 widgets here, but the daemon found 1 error and runs the previous config: its log names them; "
                    + "a plugin added since it started needs a restart)"), "\(status.stdout)")

        // A typo of a known kind is no plugin added since: its refusal does not ask for a restart.
        try driven.editConfig("widgets:\n  quote:\n    kind: quote\n")
        let refusals = {
            driven.log.split(separator: "\n").filter { $0.contains("keeping the running configuration") }
        }
        #expect(driven.turns(until: "the second refusal") { refusals().count == 2 }, "\(driven.log)")
        #expect(refusals().last?.contains("restart") == false, "\(driven.log)")
    }
}
