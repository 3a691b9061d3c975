import Control

/// Reload requests that asked to be acknowledged (`widgetd reload --wait`), and the reloads each still
/// waits for.
///
/// A request counts a reload as its own only when the reload started after it arrived: a reload already
/// running when the request came is followed by the one the request caused, and that is the one waited for.
struct AcknowledgementBook {
    private struct Waiting {
        var token: ControlCommand.AckToken
        /// The widgets the request reloads, in the order they were named: what its `--wait` prints.
        var widgets: [String]
        /// Those whose reload has not finished yet.
        var instances: Set<String>
        /// Reloads with a larger token started after the request.
        var after: UInt64
        /// Why reloads it waited for failed, one line each.
        var failures: [String] = []

        /// All the failures in one line, for the acknowledgement; nil when everything worked.
        var failure: String? {
            guard !failures.isEmpty else { return nil }
            let shown = failures.prefix(3).joined(separator: "; ")
            return failures.count > 3 ? shown + "; and \(failures.count - 3) more" : shown
        }
    }

    /// A request that is complete: its token, why any of its reloads failed, and the widgets it reloaded.
    typealias Done = (token: ControlCommand.AckToken, failure: String?, widgets: [String])

    /// The most requests waiting at once; a request past it is answered at once with a failure, so a flood of
    /// `--wait` lines cannot grow the daemon without bound.
    static let limit = 1024

    private var waiting: [Waiting] = []

    /// Requests waiting now.
    var count: Int { waiting.count }

    mutating func wait(_ token: ControlCommand.AckToken, for instances: [String], after issued: UInt64) {
        waiting.append(Waiting(token: token, widgets: instances, instances: Set(instances), after: issued))
    }

    /// Records a finished reload (success or failure, so `--wait` never hangs on a failing provider); `failure` is
    /// why it failed.
    /// - Returns: the requests now complete.
    mutating func completed(instance: String, token: UInt64, failure: String? = nil) -> [Done] {
        settle(instance, failure: failure) { token > $0.after }
    }

    /// The instance is gone (a config edit removed it): no reload of it will finish, so stop waiting for one.
    /// - Returns: the requests now complete; the removal counts as a failure.
    mutating func forget(instance: String) -> [Done] {
        settle(instance, failure: "'\(instance)' was removed from the configuration") { _ in true }
    }

    /// Takes `instance` off every request `applies` to, noting `failure`; returns the requests left waiting for
    /// nothing, in the order they came.
    private mutating func settle(_ instance: String, failure: String?, where applies: (Waiting) -> Bool) -> [Done] {
        var done: [Done] = []
        for index in waiting.indices.reversed() where applies(waiting[index]) {
            guard waiting[index].instances.remove(instance) != nil else { continue }
            if let failure { waiting[index].failures.append(failure) }
            if waiting[index].instances.isEmpty {
                done.append((waiting[index].token, waiting[index].failure, waiting[index].widgets))
                waiting.remove(at: index)
            }
        }
        return done.reversed()
    }
}
