import Foundation
import TestSupport
import Testing

/// A `widgetd run` started for one test, in its own temporary XDG directories.
final class DaemonUnderTest {
    let directory: TemporaryDirectory
    let configPath: String
    let process = Process()
    let logPath: String
    private let ownsDirectory: Bool
    /// The daemon's end, which `stop` waits for (a `deinit` runs on whichever thread, where `waitUntilExit` spins).
    private let end: ProcessEnd

    var environment: [String: String] {
        [
            "XDG_RUNTIME_DIR": directory.url.path + "/run", "XDG_STATE_HOME": directory.url.path + "/state",
            "XDG_DATA_HOME": directory.url.path + "/data", "HOME": directory.url.path + "/home",
        ]
    }
    var runtime: String { directory.url.path + "/run/widgetd" }
    var output: String { runtime + "/out" }

    /// Starts a daemon on `config`, in fresh directories or in those of an earlier daemon (`reusing`); its log goes
    /// to `standardError` when given (`/dev/full`, a pipe nobody reads), else to a file `log` reads. The config is
    /// `widgets.yaml` in the scratch directory, or in its subdirectory `configIn` (made with its parents); with
    /// `configLink`, the daemon is given a symbolic link by that name (in the scratch directory) to that file instead.
    /// `launcher` is a program and its arguments that run the daemon's command line (`nsenter -t PID -n --`, to run it
    /// in a network namespace); it must exec the daemon, so that the process is the daemon.
    init(
        config: String, arguments: [String] = [], reusing: TemporaryDirectory? = nil, standardError: FileHandle? = nil,
        extraEnvironment: [String: String] = [:], configIn: String? = nil, configLink: String? = nil,
        launcher: [String] = []
    ) throws {
        end = ProcessEnd(of: process)
        directory = try reusing ?? TemporaryDirectory()
        ownsDirectory = reusing == nil
        for sub in ["run", "state", "home"] {
            try FileManager.default.createDirectory(
                atPath: directory.url.path + "/" + sub, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        if let configIn {
            try FileManager.default.createDirectory(
                atPath: directory.url.path + "/" + configIn, withIntermediateDirectories: true)
        }
        let written = try directory.write(configIn.map { $0 + "/widgets.yaml" } ?? "widgets.yaml", config)
        if let configLink {
            configPath = directory.url.path + "/" + configLink
            try FileManager.default.createSymbolicLink(atPath: configPath, withDestinationPath: written)
        } else {
            configPath = written
        }
        logPath = try directory.write("daemon-\(UUID().uuidString).log", "")
        let command = ["run", "--config", configPath, "--log-level", "debug"] + arguments
        process.executableURL = launcher.first.map { URL(fileURLWithPath: $0) } ?? widgetdBinary
        process.currentDirectoryURL = directory.url
        process.arguments = launcher.isEmpty ? command : Array(launcher.dropFirst()) + [widgetdBinary.path] + command
        process.environment = environment.merging(["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]) { $1 }
            .merging(extraEnvironment) { $1 }
        let log = try standardError == nil ? FileHandle(forWritingTo: URL(fileURLWithPath: logPath)) : nil
        process.standardError = standardError ?? log
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        if let log { try process.run(thenClosing: log) } else { try process.run() }
    }

    deinit {
        stop()
        if ownsDirectory { directory.remove() }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            end.waitBlocking()
        }
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func read(_ name: String) -> String? {
        try? String(contentsOfFile: output + "/" + name, encoding: .utf8)
    }

    /// What the `bars:` entry `bar` shows: each block's `full_text` by its widget (`instance`), from the daemon's line
    /// (`<bar>.bar`); empty while there is none. A widget a bar shows writes no file of its own.
    func barTexts(_ bar: String) -> [String: String] {
        guard let line = read(bar + ".bar"),
            let blocks = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]]
        else { return [:] }
        var texts: [String: String] = [:]
        for block in blocks {
            if let instance = block["instance"] as? String { texts[instance] = block["full_text"] as? String }
        }
        return texts
    }

    /// Runs the CLI against this daemon's directories, on a thread of its own (`awaitingPrograms`): a command that
    /// waits for the daemon's answer would otherwise hold one of the pool's two threads for as long.
    func cli(_ arguments: [String]) async throws -> ProcessResult {
        let arguments = arguments + ["--config", configPath]
        let environment = environment
        return try await awaitingPrograms { try runWidgetd(arguments, environment: environment) }
    }

    /// `cli`, blocking the calling thread: only for a `waitFor` condition, which cannot suspend.
    func cliBlocking(_ arguments: [String]) throws -> ProcessResult {
        try runWidgetd(arguments + ["--config", configPath], environment: environment)
    }

    /// Replaces widgets.yaml the way editors do: write a temporary file, then rename it over.
    func editConfig(_ text: String) throws {
        let temporary = try directory.write(".widgets.yaml.swp", text)
        _ = rename(temporary, configPath)
    }

    /// How many times the daemon said a line containing `fragment`, counting the repeats its rate limit held back
    /// (`… (repeated 5 times)`): the lines a click or an intent causes are limited per widget.
    func loggedTimes(_ fragment: String) -> Int {
        log.split(separator: "\n").filter { $0.contains(fragment) }.reduce(0) { total, line in
            guard let range = line.range(of: " (repeated ", options: .backwards),
                let count = Int(line[range.upperBound...].prefix { $0.isNumber })
            else { return total + 1 }
            return total + count
        }
    }

    /// Whether the first timeline of `name` has landed (the daemon writes its status file after its entries).
    func hasTimeline(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: runtime + "/status/" + name + ".json")
    }

    /// `waitFor`, woken by every change under this daemon's directories: its outputs, status files and log.
    func waitFor(
        _ what: String, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: () throws -> Bool
    ) async rethrows -> Bool {
        try await widgetdTests.waitFor(
            what, timeout: timeout, watching: directory.url.path, sourceLocation: sourceLocation, condition)
    }

    /// Context switches of every thread of the daemon (`/proc/PID/task/*/status`).
    func contextSwitches() throws -> Int {
        try widgetdTests.contextSwitches(of: process.processIdentifier)
    }
}

/// Context switches of every thread of process `pid` (`/proc/PID/task/*/status`): how often it woke.
func contextSwitches(of pid: Int32) throws -> Int {
    let tasks = "/proc/\(pid)/task"
    var total = 0
    for task in try FileManager.default.contentsOfDirectory(atPath: tasks) {
        let status = try String(contentsOfFile: "\(tasks)/\(task)/status", encoding: .utf8)
        for line in status.split(separator: "\n")
        where line.hasPrefix("voluntary_ctxt_switches") || line.hasPrefix("nonvoluntary_ctxt_switches") {
            total += Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
        }
    }
    return total
}

/// `widgetd show NAME --follow` against a daemon under test, what it prints collected in a file; stopped when
/// dropped.
final class Follower {
    private let process = Process()
    private let end: ProcessEnd
    private let outPath: String

    init(_ daemon: DaemonUnderTest, showing name: String, arguments: [String] = []) throws {
        outPath = try daemon.directory.write("follow-\(UUID().uuidString).out", "")
        process.executableURL = widgetdBinary
        process.arguments = ["show", name, "--follow"] + arguments + ["--config", daemon.configPath]
        process.environment = daemon.environment
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        end = ProcessEnd(of: process)
        try process.run(thenClosing: output)
    }

    deinit {
        process.terminate()
        end.waitBlocking()
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// The lines printed so far.
    var lines: [Substring] {
        output.split(separator: "\n")
    }

    /// All it printed so far, empty lines included.
    var output: String {
        (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    }
}
