import Foundation
import Glibc

/// i3blocks' reload: one block refreshed on a signal (`signal=1`, as `pkill -RTMIN+1 i3blocks`), timed from the
/// signal to the status line that carries the new text, read from i3blocks' stdout as i3bar reads it. The block's
/// command is `date +%s%N`, so every reload changes the text; the figure includes the fork and exec of a shell and
/// `date`, which is how i3blocks reloads a block.
enum I3blocksReloadBench {
    static func run(samples: Int, root: String, name: String) throws -> Summary {
        let directory = root + "/" + name
        try makeDirectory(directory)
        let config = directory + "/i3blocks.conf"
        try "[b0]\ncommand=date +%s%N\ninterval=once\nsignal=1\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let (i3blocks, output) = try startI3blocks(config: config, in: directory, blocks: 1)
        defer { i3blocks.stop() }
        try waitForFirstLine(of: output, logIn: directory)
        sleepSeconds(0.3)
        let signal = __libc_current_sigrtmin() + 1
        var latencies: [Double] = []
        for _ in 0..<samples {
            let before = output.lastLine.count
            let sent = realtime()
            kill(i3blocks.pid, signal)
            guard waitUntil(timeout: 5, interval: 0.0005, { output.lastLine.count > before }) else {
                throw BenchError("i3blocks printed no line within 5 s of the signal")
            }
            latencies.append(output.lastLine.time - sent)
            sleepSeconds(0.01)
        }
        return Summary(latencies)
    }
}
