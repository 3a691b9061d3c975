import Basics
import Config
import Control
import FoundationEssentials
import Glibc
import Kind
import Runtime
import Text
import TimeZones

/// `widgetd doctor`: checks the setup a user cannot see at a glance, and says what to fix.
///
/// Each check prints `ok`, `warning` or `error` and, when not ok, the fix. Exit 1 when any check is not ok.
enum DoctorCommand {
    enum Verdict: String {
        case ok, warning, error
    }

    struct Finding {
        var verdict: Verdict
        var what: String
        var fix: String?
    }

    static func run(configPath: String, registry: KindRegistry, environment: [String: String], console: Console)
        -> Int32
    {
        let findings = check(configPath: configPath, registry: registry, environment: environment)
        for finding in findings {
            let verdict = finding.verdict.rawValue
            console.out(verdict + String(repeating: " ", count: max(0, 8 - verdict.count)) + finding.what)
            if let fix = finding.fix { console.out("        fix: \(fix)") }
        }
        let problems = findings.filter { $0.verdict != .ok }.count
        console.out(problems == 0 ? "All checks passed." : "\(problems) to fix.")
        return problems == 0 ? ExitCode.success : ExitCode.failure
    }

    static func check(configPath: String, registry: KindRegistry, environment: [String: String]) -> [Finding] {
        var findings: [Finding] = []
        let control = ControlPaths(environment: environment)
        let daemon = DaemonState.running(in: control)
        let path = daemon?.config ?? configPath
        let loaded = ConfigLoader.load(path: path, registry: registry)

        if let daemon {
            findings.append(Finding(verdict: .ok, what: "daemon running (pid \(daemon.pid)) with \(daemon.config)"))
        } else {
            findings.append(
                Finding(
                    verdict: .error, what: "daemon not running",
                    fix: "systemctl --user enable --now widgetd (or run 'widgetd run' from your session's startup)"))
        }
        if let configuration = loaded.configuration {
            findings.append(
                Finding(verdict: .ok, what: "\(path): \(counted(configuration.widgets.count, "widget")), no errors"))
        } else {
            let missing = access(path, F_OK) != 0 && errno == ENOENT
            findings.append(
                Finding(
                    verdict: .error,
                    what: missing ? "\(path) does not exist" : "\(path): \(loaded.errorSummary)",
                    fix: missing
                        ? ExampleConfig.advice(for: path) ?? "write one: widgets.yaml(5) and docs/configuration.md"
                        : "run '\(ConfigPath.checkCommand(for: path, environment: environment))' and correct what it "
                            + "reports"
                            + (daemon != nil ? " (the daemon keeps running the previous config meanwhile)" : "")))
        }
        findings.append(runtimeDirectory(control))
        if let problem = Zone.localProblem {
            findings.append(
                Finding(
                    verdict: .warning, what: "the local time zone: \(problem); local times are in UTC",
                    fix: "set TZ to a zone name (TZ=Europe/Berlin) or a POSIX rule, or unset it to use /etc/localtime"))
        }
        if let configuration = loaded.configuration {
            let output =
                daemon?.output ?? DaemonPaths(environment: environment, settings: configuration.settings).output
            findings += readers(of: configuration, output: output, environment: environment)
        }
        findings += plugins(configPath: path, environment: environment)
        findings.append(program(environment: environment))
        findings.append(unit(environment: environment))
        return findings
    }

    /// Bars run `widgetd show NAME` by name: `widgetd` must be on the PATH they inherit.
    static func program(environment: [String: String]) -> Finding {
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        if let found = directories.first(where: { FileManager.default.isExecutableFile(atPath: $0 + "/widgetd") }) {
            return Finding(verdict: .ok, what: "\(found)/widgetd is on the PATH")
        }
        return Finding(
            verdict: .warning, what: "widgetd is not on the PATH, so a bar's 'widgetd show NAME' will not find it",
            fix: "scripts/install (default ~/.local/bin), and put its bin directory on the PATH of your session")
    }

    /// The runtime directory must be the user's own, a real directory, closed to others (`ControlPaths`' rules).
    static func runtimeDirectory(_ control: ControlPaths) -> Finding {
        var status = stat()
        guard lstat(control.directory, &status) == 0 else {
            // The daemon makes its own directory, not the one above it ($XDG_RUNTIME_DIR, which the login makes).
            let parent = Path.directory(of: control.directory)
            var parentStatus = stat()
            guard parent.isEmpty || (stat(parent, &parentStatus) == 0 && parentStatus.st_mode & S_IFMT == S_IFDIR)
            else {
                return Finding(
                    verdict: .error,
                    what: "\(parent), where the daemon makes its directory, does not exist or is not a directory",
                    fix: access("/run/user/\(getuid())", F_OK) == 0
                        ? "set XDG_RUNTIME_DIR to your session's runtime directory, /run/user/\(getuid())"
                        : "set XDG_RUNTIME_DIR to a directory of yours that exists (the login manager makes "
                            + "/run/user/\(getuid()) in a desktop session), or unset it")
            }
            return Finding(verdict: .ok, what: "\(control.directory) does not exist yet (the daemon makes it)")
        }
        if status.st_mode & S_IFMT == S_IFLNK {
            return Finding(
                verdict: .error, what: "\(control.directory) is a symbolic link",
                fix: "rm \(control.directory) and start the daemon again")
        }
        if status.st_mode & S_IFMT != S_IFDIR {
            return Finding(
                verdict: .error, what: "\(control.directory) is not a directory",
                fix: "rm \(control.directory) and start the daemon again")
        }
        if status.st_uid != getuid() {
            return Finding(
                verdict: .error, what: "\(control.directory) belongs to uid \(status.st_uid)",
                fix: "remove it (as its owner) and start the daemon again")
        }
        if status.st_mode & 0o077 != 0 {
            return Finding(
                verdict: .error,
                what: "\(control.directory) has mode \(String(status.st_mode & 0o777, radix: 8)); others can reach it",
                fix: "chmod 700 \(control.directory)")
        }
        return Finding(verdict: .ok, what: "\(control.directory): yours, mode 700")
    }

    /// Whether something reads each widget: a widgetd process of this runtime directory that shows it (`show NAME`,
    /// or a `bar` that selects it), a process whose command line names one of its files (a `cat`), a running bar
    /// whose config file mentions it, or a file of it read since it was last written (its access time after its
    /// change time). A widgetd of another runtime directory (another user's, a test's) reads other files.
    static func readers(of configuration: Configuration, output: String, environment: [String: String]) -> [Finding] {
        let processes = ProcessTable.commandLines()
        let runtime = ControlPaths(environment: environment).directory
        var shown: Set<String> = []
        for process in processes where process.arguments.first.map({ $0.hasSuffix("widgetd") }) == true {
            guard let theirs = ProcessTable.environment(of: process.pid),
                ControlPaths(environment: theirs).directory == runtime
            else { continue }
            shown.formUnion(widgetsShown(by: process.arguments, in: configuration))
        }
        let barConfigs = BarConfigs.texts(environment: environment, processes: processes.map(\.arguments))
        var unread: [String] = []
        for widget in configuration.widgets {
            let named = processes.contains { process in
                process.arguments.contains { $0.hasPrefix(output + "/" + widget.name + ".") }
            }
            let mentioned = barConfigs.contains { $0.contains(widget.name) }
            let files = widget.outputs.map { output + "/" + widget.name + "." + $0.rawValue }
            if shown.contains(widget.name) || named || mentioned || files.contains(where: wasReadSinceWritten) {
                continue
            }
            unread.append(widget.name)
        }
        guard !unread.isEmpty else {
            return [Finding(verdict: .ok, what: "every widget's output is read by a bar or a widgetd show")]
        }
        return [
            Finding(
                verdict: .warning,
                what: "nothing reads \(unread.joined(separator: ", ")): no bar or 'widgetd show' names "
                    + (unread.count == 1 ? "it" : "them") + ", and the files were not read since written",
                fix: "add each to your bar (snippets for i3blocks, waybar, polybar and tmux: docs/bars.md, and "
                    + "share/doc/widgetd/examples or contrib/ in the source), "
                    + "or remove it from widgets.yaml")
        ]
    }

    /// The widgets a `widgetd` command line shows: `show NAME` one, `bar` those it selects (all, `--widgets`, or
    /// `--bar`'s), read with the CLI's own parser.
    static func widgetsShown(by arguments: [String], in configuration: Configuration) -> Set<String> {
        guard let command = try? CommandLineParser.parse(Array(arguments.dropFirst())) else { return [] }
        switch command {
        case .show(let instance, _, _, _):
            return [instance]
        case .bar(let widgets, let bar, _):
            guard case .success(let items) = BarCommand.select(widgets: widgets, bar: bar, in: configuration) else {
                return []
            }
            return Set(items.map(\.widget))
        default:
            return []
        }
    }

    /// Access time after the last change: read since written (relatime still records a first read after a write).
    static func wasReadSinceWritten(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let accessed = (status.st_atim.tv_sec, status.st_atim.tv_nsec)
        let changed = (status.st_mtim.tv_sec, status.st_mtim.tv_nsec)
        return accessed > changed
    }

    /// The systemd user unit: installed where the user manager finds it, and enabled.
    static func unit(environment: [String: String]) -> Finding {
        let home = environment["HOME"] ?? Path.homeDirectory()
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        let places = [
            configHome + "/systemd/user", dataHome + "/systemd/user", "/etc/systemd/user", "/usr/lib/systemd/user",
            "/usr/local/lib/systemd/user",
        ]
        guard let installed = places.first(where: { FileManager.default.fileExists(atPath: $0 + "/widgetd.service") })
        else {
            return Finding(
                verdict: .warning, what: "no systemd user unit widgetd.service",
                fix: "scripts/install (or the .deb) installs it; then systemctl --user enable --now widgetd")
        }
        let wants = ["default.target.wants", "graphical-session.target.wants"]
        let enabled = [configHome + "/systemd/user", "/etc/systemd/user"].contains { base in
            wants.contains { FileManager.default.fileExists(atPath: base + "/" + $0 + "/widgetd.service") }
        }
        guard enabled else {
            return Finding(
                verdict: .warning, what: "\(installed)/widgetd.service is installed but not enabled",
                fix: "systemctl --user enable --now widgetd")
        }
        return Finding(verdict: .ok, what: "\(installed)/widgetd.service installed and enabled")
    }
}
