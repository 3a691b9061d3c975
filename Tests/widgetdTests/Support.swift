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
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run(thenClosing: output, errors)
    try process.waitForExitOrThrow()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: try String(contentsOfFile: outPath, encoding: .utf8),
        stderr: try String(contentsOfFile: errPath, encoding: .utf8))
}

/// The repository root, for the shipped config.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
