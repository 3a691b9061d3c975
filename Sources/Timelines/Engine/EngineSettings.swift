import FoundationEssentials
import Glibc

/// The engine's limits: provider timeouts, failure backoff and the rate limit on provider-driven reloads.
public struct EngineSettings: Sendable, Hashable {
    /// How long a provider call may take before it counts as failed.
    public var providerTimeout: TimeInterval = 10
    /// The first retry after a failure; each further failure doubles it.
    public var backoffBase: TimeInterval = 1
    /// The longest wait between retries, and between reloads of a provider that asks for them in a loop.
    public var backoffCap: TimeInterval = 300
    /// The least time between two reloads a provider asks for itself (its policy); reloads a user or the
    /// app requests are never limited, as WidgetKit never budgets reloads from the foreground app.
    public var minimumPolicySpacing: TimeInterval = 1

    public init() {}

    /// The wait before retry number `failures` (1 s, 2 s, 4 s, … up to the cap).
    public func backoff(afterFailures failures: Int) -> TimeInterval {
        guard failures > 0 else { return 0 }
        let exponent = min(failures - 1, 30)
        return min(backoffBase * pow(2, Double(exponent)), backoffCap)
    }

    /// How long a provider call of `instance` may take. A kind that asks for a longer timeout of its own gets a
    /// second more than it, so its own limit (an exec command's, which kills its process group) comes first.
    func timeout(of instance: some ScheduledInstance) -> TimeInterval {
        max(providerTimeout, (instance.callTimeout ?? 0) + 1)
    }
}
