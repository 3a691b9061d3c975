import Foundation
import TestSupport
import Testing

/// What a run of the built `widgetd` binary printed and how it exited.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The `widgetd` binary SwiftPM built beside this test bundle.
let widgetdBinary: URL = {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = bundle.deletingLastPathComponent()
    // On Linux the test runner is `<build>/widgetdPackageTests.xctest`; the executable sits beside it.
    while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("widgetd").path),
        directory.path != "/"
    {
        directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("widgetd")
}()

/// Runs the built binary with `arguments` and a clean environment plus `environment`.
///
/// Output goes to temporary files rather than pipes, so a chatty child can never stall on a full pipe.
func runWidgetd(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let outPath = try directory.write("stdout", "")
    let errPath = try directory.write("stderr", "")
    let process = Process()
    process.executableURL = widgetdBinary
    process.arguments = arguments
    var base = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home", "LANG": "C.UTF-8"]
    base.merge(environment) { $1 }
    process.environment = base
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: try String(contentsOfFile: outPath, encoding: .utf8),
        stderr: try String(contentsOfFile: errPath, encoding: .utf8))
}

/// Writes `text` to `path` atomically (a new file renamed over it) through a descriptor closed on exec.
///
/// Foundation's `write(toFile:atomically:)` opens its file without `O_CLOEXEC`, so a process another test starts at
/// that moment can keep it open for writing; a script written that way then fails to start with ETXTBSY ("Text file
/// busy"), as a plugin of `pluginsAreFoundInTheDataDirectory…` did once.
func writeFile(_ text: String, to path: String) throws {
    let temporary = path + ".\(UUID().uuidString).new"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    var failure: Int32?
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else {
            failure = count < 0 ? errno : EIO
            break
        }
        written += count
    }
    close(descriptor)
    if failure == nil, rename(temporary, path) != 0 { failure = errno }
    if let failure {
        unlink(temporary)
        throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
    }
}

/// A fresh directory for one test, removed when the value is dropped by the caller's `defer`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = scratchRootURL.appendingPathComponent("widgetd-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try writeFile(text, to: path)
        return path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// The repository root, for the shipped config.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
