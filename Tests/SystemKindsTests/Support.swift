import Foundation
import Kind
import SystemKinds
import TestSupport
import Testing
import Timelines

/// A procfs/sysfs-shaped tree of this test's own, for `SystemFiles(root:)`.
struct FakeSystemTree {
    let root: String

    init() throws {
        root = scratchRoot + "/widgetd-system-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    var files: SystemFiles { SystemFiles(root: root) }

    func write(_ path: String, _ text: String) throws {
        let full = root + path
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

func context(
    _ instance: String = "w", family: Family = .accessoryInline, at now: Date = Date(timeIntervalSince1970: 1_000_000)
)
    -> ProviderContext
{
    ProviderContext(instance: instance, family: family, now: now)
}

/// The configuration of `kind` with its defaults and `overrides`.
func configuration(_ kind: some WidgetKind, _ overrides: [String: ParameterValue] = [:]) -> IntentValues {
    var values = kind.defaultConfiguration
    for (name, value) in overrides { values[name] = value }
    return values
}

/// The text and state of the entry `kind` shows now.
func shown(_ kind: some WidgetKind, _ overrides: [String: ParameterValue] = [:], family: Family = .accessoryInline)
    async throws -> EntryContent
{
    try await kind.timeline(for: configuration(kind, overrides), in: context(family: family)).entries[0].content
}

struct ProgramOutput {
    var status: Int32
    var stdout: String
}

/// Starts `program` with its standard output in the file at `outputPath`: a file, not a pipe, because a pipe's write
/// end leaks into every child another test starts meanwhile (Foundation's pipes are not close-on-exec), and a reader
/// waiting for the end of a pipe then waits for that child.
func start(_ program: String, _ arguments: [String], outputPath: String) throws -> Process {
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run(thenClosing: output)
    return process
}

/// Runs a program to its end and answers what it printed.
func run(_ program: String, _ arguments: [String]) throws -> ProgramOutput {
    let outputPath = NSTemporaryDirectory() + "widgetd-output-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let process = try start(program, arguments, outputPath: outputPath)
    try process.waitForExitOrThrow()
    return ProgramOutput(
        status: process.terminationStatus, stdout: try String(contentsOfFile: outputPath, encoding: .utf8))
}

/// The first line i3status prints with `config` (which should set `output_format = "none"`), waiting at most
/// `deadline` seconds for it; i3status is stopped then. The wait runs on a thread of its own while the test suspends:
/// Swift Testing's pool is as wide as the machine has cores, and a test polling on it holds up every other test.
func firstI3statusLine(config: String, deadline: TimeInterval = 10) async throws -> String {
    let i3status = try #require(
        ["/usr/bin/i3status", "/usr/local/bin/i3status"].first { FileManager.default.isExecutableFile(atPath: $0) },
        "i3status is not installed (apt install i3status)")
    let line: String? = try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try waitForFirstLine(of: i3status, config: config, deadline) }) }
            .start()
    }
    return try #require(line, "i3status printed no line within \(deadline) s")
}

/// `stdbuf -oL`: i3status writes through stdio, which holds a line back until its buffer fills when the output is not
/// a terminal. SIGKILL: a child of the test process starts with SIGTERM blocked, as the test process has it, so
/// i3status would never see one. Records no issue: it runs outside the test's task.
private func waitForFirstLine(of i3status: String, config: String, _ deadline: TimeInterval) throws -> String? {
    let outputPath = NSTemporaryDirectory() + "widgetd-i3status-\(UUID().uuidString).out"
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let process = try start("/usr/bin/stdbuf", ["-oL", i3status, "-c", config], outputPath: outputPath)
    defer {
        process.killAndWait()
    }
    let end = Date().addingTimeInterval(deadline)
    while Date() < end && process.isRunning {
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        if let newline = text.firstIndex(of: "\n") { return String(text[..<newline]) }
        usleep(20_000)
    }
    return nil
}

/// `23.5 GiB` (or `512.0 B`) in bytes.
func bytes(_ text: Substring) -> Double? {
    let parts = text.split(separator: " ")
    guard parts.count == 2, let number = Double(parts[0]) else { return nil }
    let powers = ["B": 0, "KiB": 1, "MiB": 2, "GiB": 3, "TiB": 4]
    guard let power = powers[String(parts[1])] else { return nil }
    return number * pow(1024, Double(power))
}
