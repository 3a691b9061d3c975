import Foundation
import Glibc

/// One scenario's private XDG directories under the benchmark's tmpfs root, and the daemon run in them.
///
/// Every scenario starts from empty directories, so no entries are restored from an earlier run and every
/// reload, placeholder and timeline is the daemon's own work.
struct Scenario {
    let directory: String
    let widgetd: String
    let environment: [String: String]

    var runtime: String { directory + "/run" }
    var control: String { runtime + "/widgetd" }
    var output: String { control + "/out" }
    var status: String { control + "/status" }
    var fifo: String { control + "/control" }
    var config: String { directory + "/config/widgetd/widgets.yaml" }
    var log: String { directory + "/daemon.log" }

    init(root: String, name: String, widgetd: String, extraEnvironment: [String: String] = [:]) throws {
        directory = root + "/" + name
        self.widgetd = widgetd
        var environment: [String: String] = [:]
        let inherited = ProcessInfo.processInfo.environment
        for key in ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "USER"] {
            if let value = inherited[key] { environment[key] = value }
        }
        environment["XDG_RUNTIME_DIR"] = directory + "/run"
        environment["XDG_DATA_HOME"] = directory + "/data"
        environment["XDG_STATE_HOME"] = directory + "/state"
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        environment["XDG_CACHE_HOME"] = directory + "/cache"
        self.environment = environment.merging(extraEnvironment) { $1 }
        for path in [
            directory, runtime, control, output, status, directory + "/data", directory + "/state",
            directory + "/config", directory + "/config/widgetd",
        ] {
            try makeDirectory(path)
        }
    }

    /// Writes `widgets.yaml` with the given `widgets:` body.
    func writeConfig(_ widgets: [String]) throws {
        let text = "widgets:\n" + widgets.joined()
        try text.write(toFile: config, atomically: true, encoding: .utf8)
    }

    /// Runs a `widgetd` command (`check`, `motivations add`) in this scenario's environment.
    func run(_ arguments: [String]) throws -> (status: Int32, seconds: Double) {
        try Child.run([widgetd] + arguments, environment: environment, stderr: log)
    }

    /// Starts `widgetd run` on this scenario's config; its log (warnings and errors) goes to `daemon.log`.
    func startDaemon() throws -> Child {
        try Child(
            [widgetd, "run", "--config", config, "--log-level", "warning"], environment: environment, stderr: log)
    }

    /// Starts the daemon, waits for its first `count` timelines and `settle` seconds more (for what follows them: status
    /// files, kept entries), then runs `body` with it and a watcher of the output directory's renames since the start.
    func withSettledDaemon<T>(
        timelines count: Int, settle: Double, _ body: (Child, RenameWatcher) throws -> T
    ) throws -> T {
        let daemon = try startDaemon()
        defer { daemon.stop() }
        let watcher = try RenameWatcher([output])
        defer { watcher.stop() }
        try waitForTimelines(count)
        sleepSeconds(settle)
        return try body(daemon, watcher)
    }

    /// The number of visible files in `directory` (the daemon's temporary files start with a dot).
    static func fileCount(_ directory: String) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { !$0.hasPrefix(".") }.count
    }

    /// Waits until `count` status files exist, that is until every instance's first timeline is in.
    func waitForTimelines(_ count: Int, timeout: Double = 120) throws {
        guard waitUntil(timeout: timeout, interval: 0.05, { Self.fileCount(status) >= count }) else {
            throw BenchError(
                "only \(Self.fileCount(status)) of \(count) timelines arrived within \(Int(timeout)) s; see \(log)")
        }
    }

    /// The daemon's log, for error messages.
    var logTail: String {
        let text = Proc.read(log) ?? ""
        return text.split(separator: "\n").suffix(5).joined(separator: "\n")
    }
}

/// `mkdir` with mode 0700; an existing directory is fine.
func makeDirectory(_ path: String) throws {
    if mkdir(path, 0o700) != 0 && errno != EEXIST {
        throw BenchError("mkdir \(path): \(String(cString: strerror(errno)))")
    }
}

/// Removes a directory tree.
func removeTree(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// Widget definitions for `widgets.yaml`.
enum Widgets {
    /// A clock with one entry per second (`%T`: the text changes every second).
    static func secondsClock(_ name: String, formats: [String]? = nil) -> String {
        "  \(name):\n    kind: clock\n    intent:\n      format: \"%T\"\n      seconds: true\n"
            + (formats.map { "    output: [\($0.joined(separator: ", "))]\n" } ?? "")
    }

    /// A clock with one entry per minute.
    static func minuteClock(_ name: String) -> String {
        "  \(name):\n    kind: clock\n"
    }

    static func quotes(_ name: String, category: String = "motivation") -> String {
        "  \(name):\n    kind: quotes\n    intent:\n      category: \(category)\n"
    }

    static func motivations(_ name: String) -> String {
        "  \(name):\n    kind: motivations\n"
    }

    /// The start-up and memory mix: motivations, quotes and per-minute clocks in turn (so one widget opens the store).
    static func mix(_ count: Int) -> [String] {
        (0..<count).map { index in
            switch index % 3 {
            case 0: motivations("w\(index)")
            case 1: quotes("w\(index)", category: ["motivation", "focus", "mindfulness"][index / 3 % 3])
            default: minuteClock("w\(index)")
            }
        }
    }
}
