import Foundation
import TestSupport
import Testing

/// `widgetd bar`, driven as i3bar drives a status command: its stdout read as the protocol, click events written
/// to its stdin, the stop and continue signals sent. The daemon's side of a `bars:` entry (one line per turn that
/// changed it, sent to its subscribers) is DaemonTests' `DrivenBarSubscriptionTests`.
@Suite("widgetd bar: the i3bar protocol", .spawnsDaemons)
struct BarCommandTests {
    static let config = """
        widgets:
          motivation:
            kind: motivations
            output: plain
          todos:
            kind: todos
            family: systemLarge
            output: plain
          quote:
            kind: quotes
          seconds:
            kind: clock
            intent:
              seconds: true
              format: "%T"
            output: [plain, i3blocks, i3bar, waybar, polybar, tmux]
        bars:
          main:
            - motivation
            - todos: {min_width: 200, align: center, separator: false, separator_block_width: 15, border: "#ff0000"}

        """

    /// A running `widgetd bar`, what it prints collected in a file, its clicks fed through a pipe.
    final class Bar {
        let process = Process()
        let outPath: String
        let errorPath: String
        let input = Pipe()

        /// `throughAPipe`: its standard output is a pipe, as i3bar gives it (copied to the file by a thread here), so
        /// the bar may hand it to the daemon; else the file itself.
        init(_ daemon: DaemonUnderTest, _ arguments: [String], throughAPipe: Bool = false) throws {
            outPath = try daemon.directory.write("bar-\(UUID().uuidString).out", "")
            process.executableURL = widgetdBinary
            process.arguments = ["bar"] + arguments + ["--config", daemon.configPath]
            process.environment = daemon.environment
            let file = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
            if throughAPipe {
                let pipe = Pipe()
                process.standardOutput = pipe
                let reading = pipe.fileHandleForReading
                Thread.detachNewThread {
                    while case let data = reading.availableData, !data.isEmpty { file.write(data) }
                }
            } else {
                process.standardOutput = file
            }
            errorPath = try daemon.directory.write("bar-\(UUID().uuidString).err", "")
            let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
            process.standardError = errors
            process.standardInput = input
            try process.run(thenClosing: errors)
            input.fileHandleForWriting.write(Data("[\n".utf8))
        }

        deinit {
            process.terminateAndWait()
        }

        var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

        var lines: [String] {
            ((try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// The status lines so far, each an array of blocks.
        var statusLines: [[[String: Any]]] {
            lines.dropFirst(2).compactMap { line in
                let json = line.hasPrefix(",") ? String(line.dropFirst()) : line
                return (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: Any]]
            }
        }

        func click(_ event: String) {
            input.fileHandleForWriting.write(Data(("," + event + "\n").utf8))
        }
    }

    @Test func printsTheHeaderThenOneStatusLinePerChange() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(
            await daemon.waitFor("the first timelines") { daemon.hasTimeline("quote") && daemon.hasTimeline("seconds") }
        )
        let bar = try Bar(daemon, ["--widgets", "quote,seconds"])
        #expect(await waitFor("three status lines") { bar.statusLines.count >= 3 })
        let lines = bar.lines
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 1)
        #expect(header["click_events"] as? Bool == true)
        #expect(header["stop_signal"] as? Int == Int(SIGUSR1))
        #expect(header["cont_signal"] as? Int == Int(SIGUSR2))
        #expect(lines[1] == "[")
        #expect(!lines[2].hasPrefix(","))
        #expect(lines[3...].allSatisfy { $0.hasPrefix(",") })
        for status in bar.statusLines {
            #expect(status.map { $0["instance"] as? String } == ["quote", "seconds"])
            #expect(status.allSatisfy { $0["name"] as? String == "widgetd" })
        }
        // Only a change makes a line: the clock's seconds differ from one line to the next.
        let seconds = bar.statusLines.map { $0[1]["full_text"] as? String ?? "" }
        #expect(Set(seconds).count == seconds.count)
    }

    /// Four `load` widgets sampled every second, shown by one `widgetd bar` for each of `bars` (their arguments); the
    /// one-minute load goes 0.25, 1.50, 2.75, and each time every bar's last line must show the new value in every
    /// block. Gives each bar's lines' texts.
    private func loadBarLines(
        _ daemon: DaemonUnderTest, _ system: FakeLoadAverage, widgets: [String], bars: [[String]]
    ) async throws -> [[[String]]] {
        #expect(await daemon.waitFor("the first timelines") { widgets.allSatisfy(daemon.hasTimeline) })
        let bars = try bars.map { try Bar(daemon, $0) }
        func texts(_ bar: Bar) -> [[String]] { bar.statusLines.map { $0.map { $0["full_text"] as? String ?? "" } } }
        func show(_ load: String) -> Bool { bars.allSatisfy { texts($0).last == [load, load, load, load] } }
        #expect(await waitFor("the first lines") { show("0.25") })
        for load in ["1.50", "2.75"] {
            // The widgets are sampled at each second's boundary, one read each in one turn: a value changed at the
            // boundary could land between two of them. Changed mid-second, a turn reads it whole unless it runs half
            // a second late. The wait is for an instant on the wall clock, not a stand-in for an event.
            let second = Date().timeIntervalSince1970
            try await Task.sleep(for: .seconds((second + 0.5).rounded(.up) - 0.5 - second))
            try system.set(load)
            #expect(await waitFor("the next samples", timeout: .seconds(5)) { show(load) }, "\(bars.map(texts))")
        }
        return bars.map(texts)
    }

    /// What the descriptors of process `pid` name (`/proc/PID/fd`): paths, `pipe:[INODE]`, `socket:[INODE]`.
    private static func openFiles(of pid: Int32) -> Set<String> {
        let directory = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return Set(
            entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0) })
    }

    private static let loadWidgets = ["a", "b", "c", "d"]
    private static let loadConfig =
        "widgets:\n" + loadWidgets.map { "  \($0): {kind: load, interval: 1s}\n" }.joined()

    /// Samples of one deadline land in one daemon turn, a record each: the bar takes them in as one line, so no line
    /// shows some of them new and some old, and i3bar parses and draws one line, not one per widget.
    @Test func theRecordsOfOneDaemonTurnMakeOneLine() async throws {
        let system = try FakeLoadAverage()
        defer { system.remove() }
        let daemon = try DaemonUnderTest(config: Self.loadConfig, extraEnvironment: system.environment)
        let texts = try await loadBarLines(
            daemon, system, widgets: Self.loadWidgets, bars: [["--widgets", Self.loadWidgets.joined(separator: ",")]])
        #expect(texts[0].allSatisfy { Set($0).count == 1 }, "a line with old and new samples: \(texts[0])")
    }

    /// A `bars:` entry's bar subscribes to its line over the daemon's socket: while it does, the line has no file. It
    /// outlives the daemon (showing the line the stopping daemon left in the file) and subscribes to the next one as
    /// soon as it listens, without a restart of the bar. On a pipe, as i3bar gives it, the bar hands its output to the
    /// daemon, which writes the lines itself: the bar does not wake for them.
    @Test(.aheadInLine, arguments: [false, true]) func aBarsEntrysBarOutlivesItsDaemonAndSubscribesToTheNextOne(
        throughAPipe: Bool
    )
        async throws
    {
        let system = try FakeLoadAverage()
        defer { system.remove() }
        let config = "widgets:\n  a: {kind: load, interval: 1s}\nbars:\n  main: [a]\n"
        let first = try DaemonUnderTest(config: config, extraEnvironment: system.environment)
        #expect(await first.waitFor("the bar's first line") { first.barTexts("main") == ["a": "0.25"] })
        let bar = try Bar(first, ["--bar", "main"], throughAPipe: throughAPipe)
        func text() -> String? { bar.statusLines.last?.first?["full_text"] as? String }
        #expect(await waitFor("the first line") { text() == "0.25" })
        #expect(await first.waitFor("the file gone while the bar subscribes") { first.read("main.bar") == nil })
        try system.set("1.25")
        #expect(await waitFor("the new sample") { text() == "1.25" })
        if throughAPipe {
            // The daemon holds the bar's output once it took it; the bar may still be going back to sleep after a line
            // it wrote itself, which a busy machine stretches. From then on, the next line wakes the bar or not.
            let barOutput = try FileManager.default.destinationOfSymbolicLink(
                atPath: "/proc/\(bar.process.processIdentifier)/fd/1")
            #expect(
                await waitFor("the daemon holding the bar's output") {
                    Self.openFiles(of: first.process.processIdentifier).contains(barOutput)
                })
            #expect(
                try await waitForQuiet("the bar to settle", window: .milliseconds(200)) {
                    try contextSwitches(of: bar.process.processIdentifier)
                })
        }
        let wakes = try contextSwitches(of: bar.process.processIdentifier)
        try system.set("1.50")
        #expect(await waitFor("the next sample") { text() == "1.50" })
        if throughAPipe {
            #expect(try contextSwitches(of: bar.process.processIdentifier) == wakes, "the bar woke for a line")
        }
        // A sampled widget only a bar shows has its record written only while someone follows it: `show`, `list` and
        // `show --follow` do while they read, so they show the sample the bar shows.
        #expect(try await first.cli(["show", "a"]).stdout == "1.50\n")
        let list = try await first.cli(["list"]).stdout
        let row = list.split(separator: "\n").last?.split(separator: " ", omittingEmptySubsequences: true)
        #expect(row?.dropFirst(3).first == "1.50", "\(list)")
        let follower = try Follower(first, showing: "a")
        #expect(await waitFor("the follower's line") { follower.lines.last == "1.50" })
        try system.set("1.75")
        #expect(await waitFor("the next sample, followed") { follower.lines.last == "1.75" && text() == "1.75" })
        first.stop()
        #expect(first.barTexts("main") == ["a": "1.75"], "the stopped daemon's last line, for the bar")
        try system.set("2.75")
        let second = try DaemonUnderTest(
            config: config, reusing: first.directory, extraEnvironment: system.environment)
        #expect(await waitFor("the next daemon's line") { text() == "2.75" }, "bar: \(bar.errors)")
        #expect(await second.waitFor("the file gone again") { second.read("main.bar") == nil })
        let shown = bar.statusLines.compactMap { $0.first?["full_text"] as? String }
        // The daemon that takes the output over, or resumes, writes its current line again: i3bar draws it once more.
        let changes = shown.enumerated().filter { $0.offset == 0 || shown[$0.offset - 1] != $0.element }.map(\.element)
        #expect((throughAPipe ? changes : shown) == ["0.25", "1.25", "1.50", "1.75", "2.75"], "\(shown)")
    }

    @Test func aClickTicksTheToDoUnderThePointerAndStarsTheMotivation() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        let env = daemon.environment
        #expect(try runWidgetd(["motivations", "add", "No zero days."], environment: env).status == 0)
        for title in ["Alpha", "Beta"] {
            #expect(try runWidgetd(["todos", "add", title], environment: env).status == 0)
        }
        #expect(await daemon.waitFor("two to-dos") { daemon.read("todos.plain") == "○ Alpha  ○ Beta\n" })
        let bar = try Bar(daemon, ["--bar", "main"])
        let text = { (instance: String) in
            bar.statusLines.last?.first { $0["instance"] as? String == instance }?["full_text"] as? String
        }
        #expect(await waitFor("the first line") { text("todos") == "○ Alpha  ○ Beta" })
        // The bar's layout for todos comes with the block.
        let todos = try #require(bar.statusLines.last?.first { $0["instance"] as? String == "todos" })
        #expect(todos["min_width"] as? Int == 200)
        #expect(todos["align"] as? String == "center")
        #expect(todos["separator"] as? Bool == false)
        #expect(todos["separator_block_width"] as? Int == 15)
        #expect(todos["border"] as? String == "#ff0000")
        // Near the right end of the block: Beta, not the first open one.
        bar.click(
            #"{"name":"widgetd","instance":"todos","button":1,"modifiers":["Shift"],"x":1186,"y":8,"relative_x":110,"#
                + #""relative_y":8,"output_x":1186,"output_y":8,"width":120,"height":18}"#)
        // Beta done, dimmed in its place: i3bar dims part of a block only in pango markup, which the block says it is.
        let dimmedBeta = "○ Alpha  <span alpha='50%'>◉ Beta</span>"
        #expect(await waitFor("Beta ticked off") { text("todos") == dimmedBeta })
        #expect(bar.statusLines.last?.first { $0["instance"] as? String == "todos" }?["markup"] as? String == "pango")
        bar.click(#"{"name":"widgetd","instance":"motivation","button":1,"modifiers":[],"relative_x":3,"width":90}"#)
        #expect(await waitFor("the star") { text("motivation") == "★ No zero days." })
        // On i3bar the background shows, so the text colour chosen for it comes with it.
        let motivation = try #require(bar.statusLines.last?.first { $0["instance"] as? String == "motivation" })
        #expect(motivation["color"] as? String == "#000000")
        #expect(motivation["background"] as? String == "#d3d3d3")
        // Another program's block on the same bar is not widgetd's to click.
        bar.click(#"{"name":"volume","instance":"todos","button":1}"#)
        #expect(try await daemon.cli(["todos", "list"]).stdout.contains("Alpha"))
        #expect(text("todos") == dimmedBeta)
    }

    @Test func aClickReachesAScriptWithEveryKeyTheBarSent() async throws {
        let daemon = try DaemonUnderTest(
            config: """
                widgets:
                  where:
                    kind: exec
                    command: [sh, -c, 'echo "b=$button m=$modifiers x=$x y=$y rx=$relative_x ry=$relative_y w=$width h=$height"']

                """)
        #expect(await daemon.waitFor("the first run") { daemon.read("where.plain")?.hasPrefix("b=") == true })
        let bar = try Bar(daemon, ["--widgets", "where"])
        #expect(await waitFor("the first line") { bar.statusLines.count >= 1 })
        bar.click(
            #"{"name":"widgetd","instance":"where","button":3,"modifiers":["Shift","Mod4"],"x":1186,"y":9,"#
                + #""relative_x":40,"relative_y":7,"output_x":1186,"output_y":9,"width":120,"height":18}"#)
        #expect(
            await waitFor("the script's answer to the click") {
                daemon.read("where.plain")
                    == #"b=3 m=["Shift","Mod4"] x=1186 y=9 rx=40 ry=7 w=120 h=18"# + "\n"
            }, "\(daemon.read("where.plain") ?? "nothing")")
    }

    @Test(.aheadInLine) func theStopSignalPausesTheOutputAndTheContinueSignalResumesIt() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(await daemon.waitFor("the clock") { daemon.hasTimeline("seconds") })
        let bar = try Bar(daemon, ["--widgets", "seconds"])
        #expect(await waitFor("a first line") { bar.statusLines.count >= 1 })
        kill(bar.process.processIdentifier, SIGUSR1)
        // What follows is clock ticks passing, one file a second: no turn at the cores is needed for that.
        await DaemonGate.giveBackTurn()
        // Give the signal time to land: two ticks of the clock must then pass with no new line.
        var ticks: Set<String> = []
        #expect(
            await waitFor("two ticks") {
                if let tick = daemon.read("seconds.plain") { ticks.insert(tick) }
                return ticks.count >= 3
            })
        let paused = bar.lines.count
        ticks = []
        #expect(
            await waitFor("two more ticks") {
                if let tick = daemon.read("seconds.plain") { ticks.insert(tick) }
                return ticks.count >= 3
            })
        #expect(bar.lines.count == paused)
        kill(bar.process.processIdentifier, SIGUSR2)
        #expect(await waitFor("a line after continuing") { bar.lines.count > paused })
    }

    /// Issue 38, item 7: with the daemon stopped and its FIFO full, each click held the bar 2 s waiting for room; 20
    /// clicks left it without a status line for 15 s, its own clock included. A click that cannot be written now is
    /// dropped at once, said on stderr as the daemon's log says a flood: a few lines, then a count of the rest (it
    /// wrote a line per click, into i3bar's or sway's log).
    @Test(.aheadInLine) func aClickTheFIFOHasNoRoomForIsDroppedAndTheLineGoesOn() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(await daemon.waitFor("the clock") { daemon.hasTimeline("seconds") })
        let pid = daemon.process.processIdentifier
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        // Filled as a stopped daemon's FIFO fills: writes that do not wait, until there is no room for one byte.
        let fifo = open(daemon.runtime + "/control", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(fifo >= 0)
        defer { close(fifo) }
        for chunk in [[UInt8](repeating: 0x0A, count: 4096), [0x0A]] {
            while chunk.withUnsafeBytes({ write(fifo, $0.baseAddress, $0.count) }) > 0 {}
        }
        #expect(errno == EAGAIN)
        let bar = try Bar(daemon, ["--widgets", "seconds"])
        #expect(await waitFor("a first line") { bar.statusLines.count >= 1 })
        for _ in 0..<20 { bar.click(#"{"name":"widgetd","instance":"seconds","button":1}"#) }
        // From here the bar's rate window (5 s) and its clock's ticks only let time pass: they cost the cores nothing.
        await DaemonGate.giveBackTurn()
        let dropped = "widgetd: warning: click on 'seconds' dropped: widgetd is not reading its control FIFO"
        // Each line a click, or "… (repeated N times)" for N more.
        let counted = {
            bar.errors.split(separator: "\n").filter { $0.hasPrefix(dropped) }.reduce(0) { total, line in
                guard let range = line.range(of: " (repeated "),
                    let count = Int(line[range.upperBound...].prefix { $0.isNumber })
                else { return total + 1 }
                return total + count
            }
        }
        #expect(await waitFor("twenty clicks counted", timeout: .seconds(10)) { counted() == 20 }, "\(bar.errors)")
        #expect(bar.errors.split(separator: "\n").count <= 4, "\(bar.errors)")
        // The bar's clock comes from the record it read, and ticks on without the daemon.
        let seen = bar.statusLines.count
        #expect(await waitFor("three more seconds shown", timeout: .seconds(6)) { bar.statusLines.count >= seen + 3 })
        #expect(bar.process.isRunning)
    }

    @Test(.aheadInLine) func sleepsWhileAnotherWidgetTicks() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(
            await daemon.waitFor("the first timelines") { daemon.hasTimeline("quote") && daemon.hasTimeline("seconds") }
        )
        let bar = try Bar(daemon, ["--widgets", "quote"])
        #expect(await waitFor("the first line") { bar.statusLines.count == 1 })
        let pid = bar.process.processIdentifier
        #expect(
            try await waitForQuiet("the bar to settle", window: .milliseconds(200)) { try contextSwitches(of: pid) })
        await DaemonGate.giveBackTurn()  // the clock ticking three times costs the cores nothing
        let before = try contextSwitches(of: pid)
        var ticks: Set<String> = []
        #expect(
            await waitFor("three ticks of the clock") {
                if let tick = daemon.read("seconds.plain") { ticks.insert(tick) }
                return ticks.count >= 4
            })
        #expect(try contextSwitches(of: pid) - before <= 1)
        #expect(bar.statusLines.count == 1)
    }

    /// widgets.yaml as a link into a dotfiles repository (GNU stow): an edit there is followed by the bar, as by the
    /// daemon; the bar watched only the link's directory.
    @Test func followsEditsWhereALinkedConfigPoints() async throws {
        let daemon = try DaemonUnderTest(config: Self.config, configIn: "dotfiles", configLink: "linked.yaml")
        #expect(
            await daemon.waitFor("the first timelines") {
                daemon.hasTimeline("motivation") && daemon.hasTimeline("todos")
            })
        let bar = try Bar(daemon, ["--bar", "main"])
        func instances() -> [String?] { bar.statusLines.last?.map { $0["instance"] as? String } ?? [] }
        #expect(await waitFor("the bar's two blocks") { instances() == ["motivation", "todos"] })
        let added = Self.config.replacingOccurrences(
            of: "bars:\n  main:\n", with: "  later:\n    kind: quotes\nbars:\n  main:\n    - later\n")
        try added.write(
            toFile: daemon.directory.url.path + "/dotfiles/widgets.yaml", atomically: false, encoding: .utf8)
        #expect(
            await waitFor("the new widget's block") { instances() == ["later", "motivation", "todos"] },
            "\(bar.errors)")
    }

    /// An i3 user adds a widget to widgets.yaml and to the bar: the daemon reloads the file, and the bar follows it
    /// without a restart of i3bar. A save that does not check changes nothing.
    @Test func followsEditsOfWidgetsYaml() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(
            await daemon.waitFor("the first timelines") {
                daemon.hasTimeline("motivation") && daemon.hasTimeline("todos")
            })
        let bar = try Bar(daemon, ["--bar", "main"])
        func instances() -> [String?] { bar.statusLines.last?.map { $0["instance"] as? String } ?? [] }
        func texts() -> [String] { bar.statusLines.last?.map { $0["full_text"] as? String ?? "" } ?? [] }
        #expect(await waitFor("the bar's two blocks") { instances() == ["motivation", "todos"] })

        let added = Self.config.replacingOccurrences(
            of: "bars:\n  main:\n", with: "  later:\n    kind: quotes\nbars:\n  main:\n    - later\n")
        try daemon.editConfig(added)
        #expect(
            await waitFor("the new widget's block with its entry") {
                instances() == ["later", "motivation", "todos"] && texts().first.map { !$0.isEmpty } == true
                    && texts().first != "later: no entry"
            }, "\(bar.lines.suffix(3))")

        // A save that does not check keeps the blocks; the next good save is followed again.
        try daemon.editConfig("widgets: [\n")
        #expect(
            await waitFor("the bar's warning") {
                bar.errors.contains("has errors; 'widgetd check --config \(daemon.configPath)' shows them")
            }, "\(bar.errors)")
        #expect(instances() == ["later", "motivation", "todos"])
        try daemon.editConfig(Self.config)
        #expect(await waitFor("the bar's two blocks again") { instances() == ["motivation", "todos"] })
        #expect(bar.process.isRunning)
    }

    @Test func checkNamesUnknownWidgetsInBars() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(
            "widgets.yaml",
            "widgets:\n  quote:\n    kind: quotes\nbars:\n  top: [quote, qoute]\n  bottom:\n    - quote: {align: middle}\n"
        )
        let result = try runWidgetd(["check", "--config", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("widgets.yaml:5:16: error: unknown widget 'qoute'"), "\(result.stderr)")
        #expect(result.stderr.contains("did you mean 'quote'?"))
        #expect(result.stderr.contains("widgets.yaml:7:22: error: 'align' must be left, center or right"))
        let valid = try directory.write("valid.yaml", "widgets:\n  quote:\n    kind: quotes\nbars:\n  top: [quote]\n")
        // A runtime directory of its own: `bar` asks a running daemon for its config, and another daemon on this
        // machine (a benchmark's, a session's) must not answer for this one.
        let runtime = directory.url.path + "/run"
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let unknownBar = try runWidgetd(
            ["bar", "--bar", "tpo", "--config", valid], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(unknownBar.status == 1)
        #expect(
            unknownBar.stderr == "widgetd: error: no bar named 'tpo' in \(valid); did you mean 'top'? its bars: top\n",
            "\(unknownBar.stderr)")
        // A widget that is not there: the ones that are.
        let unknownWidget = try runWidgetd(
            ["bar", "--widgets", "quote,nosuch", "--config", valid], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(unknownWidget.status == 1)
        #expect(
            unknownWidget.stderr == "widgetd: error: no widget named 'nosuch' in \(valid); widgets: quote\n",
            "\(unknownWidget.stderr)")
    }
}
