import Foundation

extension Process {
    /// Blocks until the process has ended or `timeout` has passed, and says whether it has ended.
    ///
    /// In place of `waitUntilExit()`, which runs the calling thread's run loop. On a thread other than the one that
    /// started the process that returns at once, so the wait spins a core; and under the suite's load it has slept on
    /// in the run loop long after the process was gone, which hung the whole run. This looks at `isRunning`, which
    /// Foundation's own reaper clears, sleeping a little longer between looks the longer the process runs (1 ms up to
    /// 10 ms): no run loop, no termination handler taken from the caller, and a deadline.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(120)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var pause: TimeInterval = 0.001
        while isRunning {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: pause)
            pause = min(pause * 2, 0.01)
        }
        return true
    }

    /// Asks the process to end (SIGTERM) and waits for it, then ends it with SIGKILL if it has not within 10 s: for a
    /// `defer` or a `deinit` that stops a daemon or a follower the way a user would.
    public func terminateAndWait() {
        if isRunning { terminate() }
        if !waitForExit(timeout: .seconds(10)) { killAndWait() }
    }

    /// Ends the process with SIGKILL, unless it has ended, and waits for it: for a `defer` or a `deinit`.
    public func killAndWait() {
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitForExit(timeout: .seconds(10))
    }
}

/// A program that did not end within its test's deadline; it was killed.
public struct ProgramOutlivedItsDeadline: Error, CustomStringConvertible {
    public var program: String
    public init(program: String) { self.program = program }
    public var description: String { "\(program) did not end in time and was killed" }
}

extension Process {
    /// Waits for the process to end, as `waitForExit(timeout:)`; if it does not in time, kills it and throws, so a
    /// stuck program fails its test instead of holding up the run.
    public func waitForExitOrThrow(timeout: Duration = .seconds(120)) throws {
        guard !waitForExit(timeout: timeout) else { return }
        killAndWait()
        throw ProgramOutlivedItsDeadline(program: executableURL?.path ?? "a program")
    }
}
