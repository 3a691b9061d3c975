import Basics
import Formats
import FoundationEssentials
import Glibc
import System

/// Runs a plugin just long enough to read its hello.
enum PluginProbe {
    struct Failure: Error, CustomStringConvertible {
        /// Why, with the last line of standard error when there is one.
        var description: String
        /// The last lines of its standard error (`StandardErrorTail`).
        var standardError: [String] = []
    }

    /// What reading the hello came to, before the process is ended.
    private enum Outcome {
        case hello([String: JSONValue])
        case failed(String)
        /// Its output ended before a hello: it exited (or closed its output); its status says which.
        case exited
    }

    static func hello(_ argv: [String], deadline seconds: TimeInterval) -> Result<[String: JSONValue], Failure> {
        var process: PersistentProcess
        do {
            // The environment the daemon gives it, so that the hello it says here is the one it says there.
            var environment = ProcessInfo.processInfo.environment
            environment["WIDGETD_PLUGIN_PROTOCOL"] = String(PluginDeclaration.protocolVersion)
            process = try PersistentProcess.spawn(argv, environment: environment, keepingErrors: true)
        } catch {
            return .failure(Failure(description: "cannot start: \(error)"))
        }
        var errors = StandardErrorTail()
        let outcome = readHello(from: process, deadline: seconds, errors: &errors)
        kill(-process.pid, SIGTERM)
        // Ends what it started in its group too (a child that ignores SIGTERM), before the pid can be reused.
        let status = process.waitForExit(killingAfter: 1)
        errors.drain(from: process.errors)
        process.closeAll()
        RunningCommands.ended(process.pid)
        let reason: String
        switch outcome {
        case .hello(let object): return .success(object)
        case .failed(let why):
            reason = why
        case .exited:
            reason =
                switch status {
                case 0: "exited before its hello"
                case 128 + SIGTERM: "closed its output before its hello"
                default: "exited with status \(status) before its hello"
                }
        }
        let lines = errors.lines
        return .failure(
            Failure(
                description: StandardErrorTail.described(reason, lines: lines), standardError: lines))
    }

    /// Reads the plugin's output until its first line, keeping what it writes on standard error meanwhile (a pipe
    /// nobody reads would stop a plugin that writes much there before its hello).
    private static func readHello(
        from process: PersistentProcess, deadline seconds: TimeInterval, errors: inout StandardErrorTail
    ) -> Outcome {
        let deadline = Date().addingTimeInterval(seconds)
        var reader = PluginLineReader(cap: PluginHost.lineCap)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var errorsOpen = process.errors >= 0
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return .failed("said no hello within \(Int(seconds)) s") }
            var descriptors = [
                pollfd(fd: process.output, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errorsOpen ? process.errors : -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, Int32((remaining * 1000).rounded(.up)))
            if ready <= 0 { continue }
            if descriptors[1].revents != 0 {
                _ = errors.read(from: process.errors)
                // At its end (POLLHUP with nothing left) it would wake every poll: not watched from then on.
                if descriptors[1].revents & Int16(POLLIN) == 0 { errorsOpen = false }
            }
            guard descriptors[0].revents != 0 else { continue }
            let count = retryingInterrupted { read(process.output, &buffer, buffer.count) }
            if count <= 0 { return .exited }
            let items = buffer.withUnsafeBufferPointer { reader.feed(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            for item in items {
                guard case .line(let bytes) = item else { return .failed("its first line is longer than 1 MiB") }
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                guard let object = (try? JSONValue.parse(bytes))?.object else {
                    return .failed("its first line is not JSON: \(LogExcerpt.of(bytes))")
                }
                return .hello(object)
            }
        }
    }
}
