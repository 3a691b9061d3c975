import Dispatch
import Foundation
import Synchronization
import TestSupport
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
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run(thenClosing: output, errors)
    try process.waitForExitOrThrow()
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

/// The end of a `Process`, awaited without holding a thread. Made before `run()`: it takes the termination handler.
///
/// Not `waitUntilExit()` on another thread: that runs the calling thread's run loop, which only has the process's
/// source on the thread that started it, and elsewhere returns at once, so the wait spins a core.
final class ProcessEnd: Sendable {
    private let state = Mutex<(ended: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
    private let ended = DispatchSemaphore(value: 0)

    init(of process: Process) {
        process.terminationHandler = { [self] _ in
            let waiter = state.withLock { state in
                state.ended = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
            ended.signal()
        }
    }

    /// Blocks the calling thread until the process has ended, sleeping, not spinning: for a `deinit` or another
    /// synchronous caller.
    func waitBlocking() {
        ended.wait()
        ended.signal()  // for the next caller
    }

    /// Returns once the process has ended (at once if it has).
    func wait() async {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state in
                if !state.ended { state.waiter = continuation }
                return state.ended
            }
            if ended { continuation.resume() }
        }
    }
}

/// Runs `work`, which waits seconds on other programs (a release build, lintian, the benchmark), on a thread of its
/// own while the calling test suspends.
///
/// Swift Testing runs every test on a pool only as wide as the machine has cores (two here): a test blocked in
/// `waitUntilExit` holds one of them for as long as its programs run, and every other test, the end-to-end ones
/// woken by their daemons included, shares what is left. `work` must not record issues (`#expect`): it runs outside
/// the test's task, so the checks stay in the caller. A `Process` it waits for must be started in `work` too (see
/// `ProcessEnd`).
func awaitingPrograms<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
