import Foundation
import Testing

/// Runs a program with a clean environment (PATH, HOME, LANG) plus `environment`, output in files, not pipes.
func runProgram(
    _ program: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil
) throws -> ProcessResult {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let outPath = try scratch.write("stdout", "")
    let errPath = try scratch.write("stderr", "")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    var base = [
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": scratch.url.path,
        "LANG": "C.UTF-8",
    ]
    base.merge(environment) { $1 }
    process.environment = base
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: try String(contentsOfFile: outPath, encoding: .utf8),
        stderr: try String(contentsOfFile: errPath, encoding: .utf8))
}

/// Runs `scripts/NAME` of this repository.
func runScript(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
    try runProgram(
        packageRoot.path + "/scripts/" + name, arguments, environment: environment,
        directory: packageRoot.path)
}
