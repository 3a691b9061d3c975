import Foundation
import TestSupport

/// Runs `python3 -c script` with `input` on its standard input and returns its standard output: the differential
/// tests' one way of asking Python's `zoneinfo` and `strftime`.
func runPython(_ script: String, input: Data, environment: [String: String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script]
    process.environment = environment
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    // Written from another thread while this one reads: both directions outgrow a pipe's buffer.
    let writer = Thread {
        stdin.fileHandleForWriting.write(input)
        try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let data = stdout.fileHandleForReading.readDataToEndOfFile()
    try process.waitForExitOrThrow()
    return data
}
