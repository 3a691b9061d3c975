import FoundationEssentials
import Glibc
import System

/// A plugin whose file was renamed or removed while the daemon serves it (docs/PLUGINS.md): the process it has runs
/// on, but once it exits it cannot be started again, and the daemon finds plugin files only when it starts.
extension PluginHost {
    /// The first file `argv` names by its path that is missing now, or nil when all are there.
    public static func missingFile(in argv: [String]) -> String? {
        argv.first { $0.hasPrefix("/") && access($0, F_OK) != 0 && errno == ENOENT }
    }

    /// Why the plugin cannot start, with what to do: the words that matter first, as a bar's block or `status` may
    /// show only the start of a widget's error.
    static func gone(_ file: String) -> String {
        "its file \(file) is gone (renamed or removed since the daemon started it): put it back, or restart the "
            + "daemon to use the plugin under its new name"
    }

    /// Waits, with the back-off doubling up to its maximum, until the plugin's file is back or the plugin is stopped
    /// (then true). A spawn would fail at once at every try: the widgets would be reloaded for nothing, each time.
    /// Meanwhile every request fails at once with the reason (`retryAt` stays ahead). `reported` is the file the log
    /// already said was gone when the plugin exited; one that went during the pause is said here.
    func waitWhileFileIsGone(reported: String?, _ wake: Wakeup) -> Bool {
        var missing = reported
        while let file = Self.missingFile(in: argv) {
            if missing == nil {
                let reason = Self.gone(file)
                state.withLock { $0.lastError = reason }
                note("warning", "\(reason); not started again until it is back")
                emit(.stopped(kind: kindName, reason: "plugin \(name): \(reason); not started again until it is back"))
            }
            missing = file
            let now = self.now
            let retryAt = state.withLock { state in
                state.backoff.lengthen()
                state.retryAt = now.addingTimeInterval(state.backoff.delay)
                return now.addingTimeInterval(state.backoff.delay)
            }
            writeStatus()
            if waitForStop(wake, until: retryAt) { return true }
        }
        if let missing { note("info", "\(missing) is back; starting it again") }
        return false
    }
}
