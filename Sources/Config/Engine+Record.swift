import Formats
import FoundationEssentials
import Timelines

extension WidgetInstance: ScheduledInstance {
    public var callTimeout: TimeInterval? { runMode.timeout }
    public var isPersistent: Bool { runMode.isPersistent }
}

extension Engine where Instance == WidgetInstance {
    /// The record readers use to work out what the instance shows at any instant (`widgetd show`, bar followers):
    /// its timeline, fallback and failure.
    public func record(of name: String) -> InstanceRecord? {
        guard let instance = instance(named: name), let held = timeline(of: name) else { return nil }
        return InstanceRecord(
            instance: name, kind: instance.kind, family: instance.family,
            entries: held.timeline?.entries ?? [], sequence: held.timeline?.sequence, fallback: held.fallback,
            failure: held.failure, reloadAfter: held.timeline?.policy.afterDate)
    }
}
