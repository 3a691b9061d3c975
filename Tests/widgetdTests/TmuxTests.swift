import Foundation
import Glibc
import Providers
import System
import Testing

/// The shipped tmux config run by the real tmux, with a client attached on a pseudo-terminal (`script`) so that
/// the status line is drawn and a mouse click can be sent the way a terminal sends it.
@Suite("tmux", .spawnsDaemons)
struct TmuxTests {
    /// Text that tmux would read as a style and as formats if the tmux format did not escape it, and runs of `#` that
    /// tmux halves twice, the last one just before the style that ends the widget's colours.
    static let hostile = "5#[fg=red]#{host} C## x ### y #"

    @Test func theShippedConfigShowsTheWidgetLiterallyAndAClickTogglesIt() async throws {
        let tmux = try requireExecutable("tmux", package: "tmux")
        let script = try requireExecutable("script", package: "bsdutils")
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  motivation:\n    kind: motivations\n    family: systemMedium\n"
                + "  todo_1:\n    kind: todos\n    intent:\n      item: 1\n")
        let added = try runWidgetd(["motivations", "add", Self.hostile], environment: daemon.environment)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try runWidgetd(["todos", "add", "Alpha"], environment: daemon.environment).status == 0)
        #expect(await daemon.waitFor("the to-do") { daemon.read("todo_1.plain") == "○ Alpha\n" })
        #expect(
            await daemon.waitFor("the motivation") { daemon.read("motivation.plain") == "☆ " + Self.hostile + "\n" })

        // `widgetd` on tmux's PATH, as the config expects, and the daemon's directories in its environment.
        let bin = daemon.directory.url.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/widgetd", withDestinationPath: widgetdBinary.path)
        let environment = daemon.environment.merging([
            "PATH": bin + ":/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color",
            "WIDGETD_CONFIG": daemon.configPath,
        ]) { $1 }
        let socket = daemon.directory.url.path + "/tmux.sock"
        let config = packageRoot.path + "/contrib/tmux/widgetd.tmux.conf"
        let started = try Child.run(
            [tmux, "-S", socket, "-f", config, "new-session", "-d", "-s", "widgetd", "sleep 600"],
            environment: environment)
        #expect(started == 0)

        // A client on a pseudo-terminal: what tmux draws there, status line included, lands in `typescript`.
        let typescript = daemon.directory.url.path + "/typescript"
        let client = try Child(
            [script, "-qfc", "tmux -S '\(socket)' attach -t widgetd", typescript], environment: environment)
        defer {
            // The server first: the client then exits, and `script` with it.
            _ = try? Child.run([tmux, "-S", socket, "kill-server"], environment: environment)
            client.stop()
        }
        let drawn = { (try? String(contentsOfFile: typescript, encoding: .utf8)) ?? "" }
        // Drawn as typed: tmux neither took `#[fg=red]` as a style nor expanded `#{host}`.
        #expect(
            await waitFor("the widget in tmux's status line", timeout: .seconds(15)) { drawn().contains(Self.hostile) },
            "tmux drew:\n\(drawn())")

        // Readable: the motivation's black text goes with its grey background (tmux maps #000000 and #d3d3d3 to the
        // 256 colours 16 and 252 on xterm-256color), so the escapes tmux drew just before the text set both.
        let before = drawn().components(separatedBy: "☆ " + Self.hostile).first.map { String($0.suffix(40)) } ?? ""
        #expect(
            before.contains("\u{1B}[38;5;16m") && before.contains("\u{1B}[48;5;252m"),
            "tmux drew just before the widget: \(before.debugDescription)")

        // A left click on the left of the status line (row 24 of the 80×24 terminal `script` gives it), as an
        // xterm in SGR mouse mode sends it: the binding runs `widgetd click motivation --wait` and redraws.
        try client.type("\u{1b}[<0;3;24M\u{1b}[<0;3;24m")
        #expect(
            await waitFor("the star after the click", timeout: .seconds(15)) { drawn().contains("★ " + Self.hostile) },
            "tmux drew:\n\(drawn())\ndaemon log:\n\(daemon.log)")
        #expect(daemon.read("motivation.plain") == "★ " + Self.hostile + "\n")

        // The right of the status line is todo_1 and the time: a click there (on the time, which is right whatever the
        // to-do's length) ticks Alpha off, a second opens it again.
        #expect(
            await waitFor("the to-do in tmux's status line", timeout: .seconds(15)) { drawn().contains("○ Alpha") },
            "tmux drew:\n\(drawn())")
        try client.type("\u{1b}[<0;79;24M\u{1b}[<0;79;24m")
        #expect(
            await waitFor("Alpha ticked off", timeout: .seconds(15)) { drawn().contains("◉ Alpha") },
            "tmux drew:\n\(drawn())\ndaemon log:\n\(daemon.log)")
        // Dimmed: drawn in the grey #888888 (xterm-256color's 102, #878787), which every terminal shows.
        let beforeDone = drawn().components(separatedBy: "◉ Alpha").first.map { String($0.suffix(40)) } ?? ""
        #expect(
            beforeDone.contains("\u{1B}[38;5;102m"),
            "tmux drew just before the done to-do: \(beforeDone.debugDescription)")
        try client.type("\u{1b}[<0;79;24M\u{1b}[<0;79;24m")
        #expect(
            await waitFor("Alpha open again", timeout: .seconds(15)) {
                drawn().components(separatedBy: "◉ Alpha").last?.contains("○ Alpha") == true
            }, "tmux drew:\n\(drawn())\ndaemon log:\n\(daemon.log)")
        #expect(daemon.read("todo_1.plain") == "○ Alpha\n")
        // The terminal's font is the user's; the README's, DejaVu Sans Mono, draws every glyph widgetd writes.
        #expect(try FontCoverage.missing(in: "DejaVu Sans Mono") == [])
    }
}

/// A child process spawned with no descriptor of ours but the three given (tmux's server forks away and would
/// otherwise keep whatever it inherited open, and Foundation's `Process` then waits for it for good), and with
/// the signals of a process started from a shell.
private final class Child {
    let pid: pid_t
    /// The write end of the child's standard input.
    private let input: Int32
    private let end: ChildEnd

    init(_ argv: [String], environment: [String: String]) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw CocoaError(.fileWriteUnknown) }
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        pid = try Self.spawn(argv, environment: environment, input: ends[0])
        end = ChildEnd(pid)
        close(ends[0])
        input = ends[1]
    }

    /// Runs `argv` to its end, standard input empty, and returns its exit status.
    static func run(_ argv: [String], environment: [String: String]) throws -> Int32 {
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(null) }
        let pid = try spawn(argv, environment: environment, input: null)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xff
    }

    /// Writes `text` to the child's standard input, as keys typed on its terminal.
    func type(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard write(input, bytes, bytes.count) == bytes.count else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Closes its input, gives it five seconds to end, then kills it; reaps it either way.
    ///
    /// Clean-up from a `defer`, which cannot suspend: it blocks until the child's end (`ChildEnd`) or the deadline.
    func stop() {
        close(input)
        guard end.wait(timeout: .seconds(5)) == nil else { return }
        kill(pid, SIGKILL)
        if end.wait(timeout: .seconds(5)) == nil {
            Issue.record("\(pid) still runs 5 s after SIGKILL")
        }
    }

    private static func spawn(_ argv: [String], environment: [String: String], input: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        ChildAttributes.closeInheritedDescriptors(&actions)
        var arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var variables: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var pid: pid_t = 0
        // An empty signal mask and default handlers, in a session of its own: the test runner's threads block
        // most signals, and a tmux server that inherited that would never see its jobs end (SIGCHLD).
        let result = ChildAttributes.with(.session) { attributes in
            posix_spawn(&pid, argv[0], &actions, &attributes, &arguments, &variables)
        }
        guard result == 0 else { throw CocoaError(.executableLoad) }
        return pid
    }
}
