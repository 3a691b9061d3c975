import Foundation

/// i3blocks as the benchmark runs it: on `config`, its standard error in `directory`/i3blocks.log, and its status
/// lines read by a `BlockUpdateCounter` of `blocks` blocks. The caller stops the process.
func startI3blocks(
    config: String, in directory: String, blocks: Int, stdinPipe: Bool = false
) throws -> (process: Child, output: BlockUpdateCounter) {
    let process = try Child(
        ["i3blocks", "-c", config], environment: ProcessInfo.processInfo.environment, stdout: .pipe,
        stderr: directory + "/i3blocks.log", stdinPipe: stdinPipe)
    return (process, BlockUpdateCounter(descriptor: process.pipeReadEnd, blocks: blocks))
}

/// Waits up to 10 s for i3blocks' first status line: until then its blocks are still starting.
func waitForFirstLine(of output: BlockUpdateCounter, logIn directory: String) throws {
    guard waitUntil(timeout: 10, { output.counts.lines > 0 }) else {
        throw BenchError("i3blocks printed nothing; see \(directory)/i3blocks.log")
    }
}
