import Scheduler

/// Reload requests that asked to be acknowledged (`widgetd reload --wait`), and the reloads each still
/// waits for.
///
/// A request counts a reload as its own only when the reload started after it arrived: a reload already
/// running when the request came is followed by the one the request caused, and that is the one waited for.
struct AcknowledgementBook {
    private struct Waiting {
        var token: ControlCommand.AckToken
        var instances: Set<String>
        /// Reloads with a larger token started after the request.
        var after: UInt64
    }

    private var waiting: [Waiting] = []

    mutating func wait(_ token: ControlCommand.AckToken, for instances: [String], after issued: UInt64) {
        waiting.append(Waiting(token: token, instances: Set(instances), after: issued))
    }

    /// Records a finished reload (success or failure, so `--wait` never hangs on a failing provider).
    /// - Returns: the tokens now complete.
    mutating func completed(instance: String, token: UInt64) -> [ControlCommand.AckToken] {
        var done: [ControlCommand.AckToken] = []
        for index in waiting.indices.reversed() where token > waiting[index].after {
            waiting[index].instances.remove(instance)
            if waiting[index].instances.isEmpty {
                done.append(waiting[index].token)
                waiting.remove(at: index)
            }
        }
        return done.reversed()
    }

    /// The instance is gone (a config edit removed it): no reload of it will finish, so stop waiting for one.
    /// - Returns: the tokens now complete.
    mutating func forget(instance: String) -> [ControlCommand.AckToken] {
        var done: [ControlCommand.AckToken] = []
        for index in waiting.indices.reversed() where waiting[index].instances.contains(instance) {
            waiting[index].instances.remove(instance)
            if waiting[index].instances.isEmpty {
                done.append(waiting[index].token)
                waiting.remove(at: index)
            }
        }
        return done.reversed()
    }
}
