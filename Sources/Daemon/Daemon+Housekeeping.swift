import FoundationEssentials
import Runtime

/// What the loop does besides the engine's deadlines, each on a deadline of its own, only while there is something
/// to do: runtime repairs, output retries, log summaries, state-file retries and leftover acknowledgements, the updates
/// socket's listener polled again after a rest (`AcceptPause`), and the working set's trim after start-up
/// (`Daemon+WorkingSet`, done just before the loop sleeps).
extension Daemon {
    /// The earliest of `engineDeadline` and every housekeeping deadline, for the timer.
    /// Asked at every wake-up, so it compares in place rather than collecting the deadlines into an array.
    func nextHousekeeping(after engineDeadline: Date?) -> Date? {
        func earlier(_ a: Date?, _ b: Date?) -> Date? {
            guard let a else { return b }
            guard let b else { return a }
            return min(a, b)
        }
        return earlier(
            earlier(
                earlier(engineDeadline, directoryGuard.outputRepairDue),
                earlier(directoryGuard.runtimeRepairDue, outputRetry.due)),
            earlier(
                earlier(logLimits.nextDeadline, stateFiles.nextDeadline),
                earlier(
                    earlier(presence.keepAliveDue(now: clock.now), workingSetTrimDue),
                    earlier(
                        earlier(supervisor.pluginRetryDue, hangupRereads.due),
                        earlier(clickCommands.nextAnswer, updateSubscribers.acceptPause.resumesAt)))))
    }

    /// Does whatever housekeeping is due at `now`.
    func doHousekeeping(now: Date) {
        if directoryGuard.runtimeRepairIsDue(now: now) { repairRuntime() }
        if let due = outputRetry.due, due <= now { retryOutputs(now: now) }
        retryFailedPluginsWhenDue(now: now)
        answerClickCommandsWhenDue(now: now)
        rereadForHangupWhenDue(now: now)
        resumeTakingConnectionsWhenDue(now: now)
        if let due = logLimits.nextDeadline, due <= now {
            for line in logLimits.flush(now: now) { log(line.level, line.text) }
        }
        // A daemon that lost its runtime directory to another stops: nothing of its own goes into that one's.
        if !stopping { stateFiles.doHousekeeping(now: now) }
        keepWatchdogAlive()
    }

    /// Logs a line caused from outside the daemon (a FIFO line, a click, a provider's or a plugin's message, a
    /// signal), at most a burst per `source` and window, with counts for what was held back (`LogRateLimiter`), and
    /// at most `LogText.lineLimit` characters: the outside values in it are quoted shorter, this is the bound should
    /// one slip through.
    func log(_ level: LogLevel, from source: String, _ message: String) {
        guard level >= log.level else { return }
        let text = LogText.excerpt(message, limit: LogText.lineLimit)
        for line in logLimits.admit(.init(level: level, text: text), from: source, now: clock.now) {
            log(line.level, line.text)
        }
    }
}
