import Control
import Foundation
import Glibc
import System
import TestSupport
import Testing

/// The shipped i3blocks config run by the real i3blocks, clicked the way i3bar clicks, and `show --follow` reading
/// clicks on its standard input (the pieces of `widgetd show` that pass clicks on: CLITests' `ClickForwarderTests`;
/// `show` forwarding the click i3blocks started it for: DaemonTests' `DrivenShowClickTests`).
@Suite("i3blocks and click forwarding", .spawnsDaemons)
struct I3blocksTests {
    static let config = """
        widgets:
          motivation:
            kind: motivations
          todos:
            kind: todos
            family: systemLarge
          todo_1:
            kind: todos
            intent: {item: 1}
          todo_2:
            kind: todos
            intent: {item: 2}
          todo_3:
            kind: todos
            intent: {item: 3}
          clock:
            kind: clock
            intent:
              format: "%Y"
        """

    @Test func aClickInRealI3blocksTogglesTheStar() async throws {
        let i3blocks = try requireExecutable("i3blocks", package: "i3blocks")
        let daemon = try DaemonUnderTest(config: Self.config)
        let env = daemon.environment
        let added = try runWidgetd(["motivations", "add", "No zero days."], environment: env)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(await daemon.waitFor("the new motivation") { daemon.read("motivation.plain") == "☆ No zero days.\n" })
        let expected = try JSONDecoder().decode(
            I3barBlock.self, from: Data(try await daemon.cli(["show", "motivation", "--format", "i3bar"]).stdout.utf8))

        let config = try I3blocks.config(from: packageRoot.path + "/contrib/i3blocks.conf")
        #expect(config.contains("exec '\(widgetdBinary.path)' show motivation --format i3bar --follow"))
        #expect(config.contains("exec '\(widgetdBinary.path)' click motivation --button"))
        let barEnvironment = env.merging(
            ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "WIDGETD_CONFIG": daemon.configPath]) { $1 }
        let bar = try I3blocks(executable: i3blocks, config: config, in: daemon.directory, environment: barEnvironment)
        defer { bar.stop() }

        // The i3bar protocol: a header line, then an endless array, one status line per update.
        #expect(await waitFor("i3blocks' header") { bar.lines.first.map(I3blocks.isHeader) == true })
        var block: I3barBlock?
        #expect(
            await waitFor("the motivation block in i3blocks' output", timeout: .seconds(15)) {
                block = bar.latest(instance: "motivation")
                return block?.fullText == "☆ No zero days."
            }, "i3blocks printed:\n\(bar.output)\nstderr:\n\(bar.errors)")
        let shown = try #require(block)
        #expect(shown.name == "widgetd")
        #expect(shown.color == expected.color)
        // i3blocks 1.4 knows no `background` key and drops it (block.h's PROPERTIES), so none is sent, and the text
        // takes the motivation's colour, which reads on i3bar's black, not the black chosen for that background.
        #expect(expected.color == "#d3d3d3" && expected.background == nil)
        #expect(shown.background == nil)
        // The other sections work too, and the click handlers print nothing, so the bar shows no extra blocks; with no
        // to-dos, todo_1 says so and todo_2 and todo_3 print nothing either.
        let widgets = ["motivation", "todo_1", "clock"]
        #expect(await waitFor("a block per widget") { bar.latestLine?.compactMap(\.instance) == widgets })

        // i3bar opens its click stream with "[", then writes one event per line, later ones after a comma.
        try bar.write("[\n")
        try bar.write(I3blocks.clickEvent(instance: "motivation", button: 1) + "\n")
        #expect(
            await waitFor("the star after a left click in i3blocks") {
                bar.latest(instance: "motivation")?.fullText == "★ No zero days."
            }, "i3blocks printed:\n\(bar.output)\ndaemon log:\n\(daemon.log)")
        #expect(daemon.read("motivation.plain") == "★ No zero days.\n")

        // Sideways scrolling (button 6) is no click widgetd takes: nothing changes, and no error block appears.
        // i3blocks 1.4 drops a click that comes while the block's command for the click before still runs, so
        // each click here waits until that command has been reaped, which i3blocks follows with a status line of
        // its own. The clock shows the year, so no other status line comes in between.
        #expect(await waitFor("the first click's command reaped") { bar.isIdle })
        let printed = bar.lines.count
        try bar.write("," + I3blocks.clickEvent(instance: "motivation", button: 6) + "\n")
        #expect(await waitFor("the sideways scroll's command reaped") { bar.lines.count > printed && bar.isIdle })
        #expect(bar.latest(instance: "motivation")?.fullText == "★ No zero days.")
        try bar.write("," + I3blocks.clickEvent(instance: "motivation", button: 1) + "\n")
        #expect(
            await waitFor("the star gone after a second left click") {
                bar.latest(instance: "motivation")?.fullText == "☆ No zero days."
            }, "i3blocks printed:\n\(bar.output)")
        // No error block (i3blocks shows a failed command as an urgent block of its own).
        #expect(bar.latestLine?.compactMap(\.instance) == widgets)
        #expect(bar.latestLine?.allSatisfy { $0.urgent != true } == true)
        #expect(daemon.log.components(separatedBy: "toggle-favorite:").count == 3)

        // Stopping i3blocks stops the `widgetd show --follow` commands it started too.
        bar.stop()
        #expect(I3blocks.members(ofGroup: bar.pid).isEmpty)
    }

    @Test func showFollowForwardsClicksFromStandardInputAndOutlivesItsEnd() async throws {
        let daemon = try DaemonUnderTest(config: Self.config)
        let env = daemon.environment
        for title in ["Alpha", "Beta"] {
            #expect(try runWidgetd(["todos", "add", title], environment: env).status == 0)
        }
        #expect(await daemon.waitFor("two to-dos") { daemon.read("todos.plain") == "○ Alpha  ○ Beta\n" })
        let follower = Process()
        follower.executableURL = widgetdBinary
        follower.arguments = ["show", "todos", "--follow", "--config", daemon.configPath]
        follower.environment = env
        let outPath = try daemon.directory.write("follow.out", "")
        let followerOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        follower.standardOutput = followerOutput
        let input = Pipe()
        follower.standardInput = input
        try follower.run(thenClosing: followerOutput)
        defer {
            follower.terminateAndWait()
        }
        var shown: [String] = []
        let printed = { (count: Int) in
            shown = ((try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "").split(separator: "\n").map(
                String.init)
            return shown.count >= count
        }
        #expect(await waitFor("the first entry") { printed(1) })
        #expect(shown == ["○ Alpha  ○ Beta"])
        // i3blocks 1.5's format=json: the block's keys and the click's, one object per line, here in two writes.
        // The click is near the right end of the block, on Beta.
        let json = #"{"":"","full_text":"○ Alpha  ○ Beta","name":"widgetd","instance":"todos","button":1,"#
        input.fileHandleForWriting.write(Data(json.utf8))
        input.fileHandleForWriting.write(Data(#""x":1186,"relative_x":110,"width":120,"modifiers":[]}"#.utf8 + [10]))
        #expect(await waitFor("Beta ticked off") { printed(2) })
        #expect(shown.last == "○ Alpha  ◉ Beta")
        // i3blocks 1.5's default format: the button alone on a line; the first open to-do is ticked off.
        input.fileHandleForWriting.write(Data("1\n".utf8))
        #expect(await waitFor("Alpha ticked off") { printed(3) })
        #expect(shown.last == "◉ Alpha  ◉ Beta")
        // End of file on standard input ends the clicks, not the entries.
        try input.fileHandleForWriting.close()
        #expect(try runWidgetd(["todos", "add", "Gamma"], environment: env).status == 0)
        #expect(await waitFor("the entry after standard input closed") { printed(4) })
        #expect(shown.last == "◉ Alpha  ◉ Beta  ○ Gamma")
        #expect(follower.isRunning)
    }
}

/// One block of an i3bar status line, as far as these tests look.
struct I3barBlock: Decodable, Equatable {
    var fullText: String?
    var color: String?
    var background: String?
    var urgent: Bool?
    var name: String?
    var instance: String?
    var markup: String?

    enum CodingKeys: String, CodingKey {
        case fullText = "full_text"
        case color, background, urgent, name, instance, markup
    }
}

/// The real i3blocks, started in its own process group on a pipe that plays i3bar's click stream, its status lines
/// going to a file.
final class I3blocks {
    let version: String?
    /// i3blocks' process id, which is also its process group's.
    let pid: pid_t
    private let clicks: Int32
    private let end: ChildEnd
    private let outputPath: String
    private let errorPath: String
    private var stopped = false
    /// How many `interval=persist` blocks the config has: the processes i3blocks keeps running.
    private let persistBlocks: Int

    /// The shipped config with `widgetd` in its commands replaced by the built binary.
    static func config(from path: String) throws -> String {
        let shipped = try String(contentsOfFile: path, encoding: .utf8)
        let binary = "'" + widgetdBinary.path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        return shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix("command=") else { return String(line) }
            return line.replacingOccurrences(of: "exec widgetd ", with: "exec \(binary) ")
        }.joined(separator: "\n")
    }

    /// Starts `i3blocks -c <config>` with `environment`, in `directory`.
    init(executable: String, config: String, in directory: TemporaryDirectory, environment: [String: String]) throws {
        let configPath = try directory.write("i3blocks.conf", config)
        outputPath = try directory.write("i3blocks.out", "")
        errorPath = try directory.write("i3blocks.err", "")
        version = Self.version(of: executable)
        persistBlocks = config.split(separator: "\n").filter { $0 == "interval=persist" }.count

        // The pipe i3bar would write clicks to; close-on-exec, so that only the dup on i3blocks' stdin reaches it.
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0
        else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        clicks = ends[1]
        defer { close(ends[0]) }
        let output = open(outputPath, O_WRONLY | O_CLOEXEC)
        let errors = open(errorPath, O_WRONLY | O_CLOEXEC)
        defer { _ = (close(output), close(errors)) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
        ChildAttributes.closeInheritedDescriptors(&actions)  // see SpawnedProcess
        // Its own process group, so that stopping it stops the block commands it started too; default signal
        // actions and an empty mask, whatever the test runner blocks or ignores.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)

        let words: [String] = [executable, "-c", configPath]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child = pid_t()
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(clicks)
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO)
        }
        pid = child
        end = ChildEnd(child)
    }

    deinit { stop() }

    /// Writes to i3blocks' standard input, as i3bar writes click events.
    func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(clicks, $0.baseAddress, $0.count) }) == bytes.count else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    /// One click event as i3 4.22's i3bar writes it, on `button`, 12 pixels into a block 120 wide.
    static func clickEvent(instance: String, button: Int) -> String {
        #"{"name":"widgetd","instance":"\#(instance)","button":\#(button),"modifiers":[],"x":1186,"y":13,"#
            + #""relative_x":12,"relative_y":8,"output_x":1186,"output_y":13,"width":120,"height":22}"#
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// The complete lines printed so far.
    var lines: [String] {
        let text = output
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n").map(String.init)
    }

    static func isHeader(_ line: String) -> Bool {
        guard let data = line.data(using: .utf8),
            let header = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return false }
        return header["version"] as? Int == 1 && header["click_events"] as? Bool == true
    }

    /// The last status line: its blocks.
    var latestLine: [I3barBlock]? {
        for line in lines.reversed() {
            // After the header comes "[[]" (the array and an empty first line), then ",[…]" per update.
            var text = Substring(line)
            if text.hasPrefix(",") { text = text.dropFirst() }
            if text.hasPrefix("[[") { text = text.dropFirst() }
            if let blocks = try? JSONDecoder().decode([I3barBlock].self, from: Data(text.utf8)) { return blocks }
        }
        return nil
    }

    /// The widgetd block for `instance` in the last status line.
    func latest(instance: String) -> I3barBlock? {
        latestLine?.first { $0.name == "widgetd" && $0.instance == instance }
    }

    /// Stops every process in i3blocks' group (the `widgetd show --follow` it started), then i3blocks, and reaps it.
    ///
    /// The block commands go first, while i3blocks still reaps its children; stopped after it, they would be left
    /// to an init that may never reap them.
    func stop() {
        guard !stopped else { return }
        stopped = true
        close(clicks)
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        for member in Self.members(ofGroup: pid) where member != pid { kill(member, SIGTERM) }
        // i3blocks itself may be gone already (reaped by `end`), so only the others count.
        while Self.members(ofGroup: pid, includingZombies: true).contains(where: { $0 != pid })
            && ContinuousClock.now < deadline
        {
            usleep(10_000)
        }
        kill(-pid, SIGTERM)
        _ = end.wait(timeout: max(.zero, deadline - ContinuousClock.now))
        // Whatever is left after the deadline (nothing, normally) gets SIGKILL.
        kill(-pid, SIGKILL)
        if end.wait(timeout: .seconds(5)) == nil { Issue.record("i3blocks (\(pid)) still runs 5 s after SIGKILL") }
        while !Self.members(ofGroup: pid).isEmpty && ContinuousClock.now < deadline { usleep(10_000) }
    }

    /// Whether i3blocks runs nothing but its persist blocks: no click command, nor one exited and not reaped yet.
    var isIdle: Bool {
        let members = Self.members(ofGroup: pid, includingZombies: true)
        return members.count == 1 + persistBlocks
    }

    /// The processes in process group `group`; zombies (exited, not yet reaped) only when asked for.
    static func members(ofGroup group: pid_t, includingZombies: Bool = false) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm)": state, ppid, pgrp, …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, includingZombies || fields[0] != "Z", pid_t(fields[2]) == group else { return nil }
            return pid
        }
    }

    /// "1.4" from `i3blocks -V` ("i3blocks 1.4 © 2014 …").
    private static func version(of executable: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-V"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.waitForExit() else { return nil }
        return text.split(separator: " ").dropFirst().first.map(String.init)
    }
}
