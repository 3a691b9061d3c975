import FoundationEssentials
import Glibc
import System

/// What a plugin host keeps under its lock: the process, its queued input, the requests awaiting replies, and how it
/// fared (for `widgetd plugins`).
extension PluginHost {
    struct Pending {
        var sent: Date
        var deadline: Date
        var finish: @Sendable (Result<Data, PluginProtocolError>) -> Void
    }

    struct State {
        var pid: pid_t = -1
        var input: Int32 = -1
        var wake: Wakeup?
        var outbox: [UInt8] = []
        var pending: [Int: Pending] = [:]
        /// Requests in a row that passed their deadlines with no reply since they were sent
        /// (`PluginHost.unansweredLimit`).
        var unansweredInARow = 0
        var lastReply = Date.distantPast
        var nextID = 1
        var hello: PluginDeclaration?
        var retryAt: Date?
        var backoff = RestartBackoff()
        var lastError: String?
        /// The last lines of standard error of the run that ended last (`StandardErrorTail`).
        var lastStandardError: [String] = []
        var restarts = 0
        var stopped = false
        /// A write to its input failed (`EPIPE`: it closed its standard input): the run is over, since nothing more
        /// can be asked of it, and the write end would report the error to every poll.
        var inputClosed = false
    }
}
