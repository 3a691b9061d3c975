import Foundation
import Glibc
import Providers
import System
import TestSupport
import Testing

/// zsh's completion system needs a line editor, so the zsh completion is tried in a real interactive zsh on a tmux
/// pane: keys are sent with `send-keys`, what zsh shows is read with `capture-pane` (which drops trailing spaces).
@Suite("zsh completion in a terminal")
struct ZshCompletionTests {
    @Test("zsh completes subcommands, formats, families and the config's widget names")
    func zshCompletes() async throws {
        let zsh = try requireExecutable("zsh", package: "zsh")
        let tmux = try requireExecutable("tmux", package: "tmux")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.path
        try FileManager.default.createDirectory(atPath: path + "/functions", withIntermediateDirectories: true)
        let completion = try runWidgetd(["generate", "completion", "zsh"])
        _ = try directory.write("functions/_widgetd", completion.stdout)
        let config = try directory.write(
            "widgets.yaml", "widgets:\n  quote:\n    kind: quotes\n  morning:\n    kind: clock\n")
        _ = try directory.write(
            ".zshrc", "PS1='> '\nfpath=(\(path)/functions $fpath)\nautoload -U compinit\ncompinit -u\nunsetopt beep\n")
        let environment = [
            "PATH": widgetdBinary.deletingLastPathComponent().path + ":/usr/bin:/bin", "HOME": path, "ZDOTDIR": path,
            "XDG_RUNTIME_DIR": path, "TERM": "xterm-256color", "LANG": "C.UTF-8",
        ]
        let socket = path + "/tmux.sock"
        func tmuxRun(_ arguments: [String]) throws -> String {
            try TerminalProcess.run([tmux, "-S", socket, "-f", "/dev/null"] + arguments, environment: environment)
        }
        _ = try tmuxRun(["new-session", "-d", "-x", "160", "-y", "40", zsh + " -i"])
        defer { _ = try? tmuxRun(["kill-server"]) }
        let screen = { (try? tmuxRun(["capture-pane", "-p"])) ?? "" }
        #expect(await waitFor("zsh's prompt") { screen().hasPrefix(">") }, "the pane:\n\(screen())")

        func complete(_ typed: String, shows expected: [String]) async throws {
            _ = try tmuxRun(["send-keys", "C-u", typed, "Tab", "Tab"])
            #expect(
                await waitFor("\(expected) after '\(typed)'") {
                    let shown = screen()
                    return expected.allSatisfy { shown.contains($0) }
                }, "the pane:\n\(screen())")
            _ = try tmuxRun(["send-keys", "C-u", "C-l"])
        }
        try await complete("widgetd sta", shows: ["> widgetd status"])
        try await complete("widgetd show --format wa", shows: ["> widgetd show --format waybar"])
        try await complete("widgetd preview --family systemE", shows: ["> widgetd preview --family systemExtraLarge"])
        try await complete("widgetd show --config \(config) ", shows: ["morning", "quote"])
        try await complete("widgetd reload --config \(config) mo", shows: ["reload --config \(config) morning"])
    }
}

/// Runs a program to its end, standard output in a file, in a session of its own and with an empty signal mask (the
/// test runner's threads block signals; a tmux server that inherited that would never see its children end).
enum TerminalProcess {
    static func run(_ argv: [String], environment: [String: String]) throws -> String {
        let output = scratchRootURL.appendingPathComponent("widgetd-out-\(UUID().uuidString)")
            .path
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        ChildAttributes.closeInheritedDescriptors(&actions)
        var arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var variables: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = ChildAttributes.with(.session) { attributes in
            posix_spawn(&pid, argv[0], &actions, &attributes, &arguments, &variables)
        }
        guard result == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
}
