import Foundation
import Output
import Timelines

extension WidgetInstance: ScheduledInstance {
    public var callTimeout: TimeInterval? { runMode.timeout }
    public var isPersistent: Bool { runMode.isPersistent }
}

extension Engine where Instance == WidgetInstance {
    /// The instance's timeline, fallback and failure as the record file readers work out what it shows at any
    /// instant from.
    public func record(of name: String) -> InstanceRecord? {
        guard let instance = instance(named: name), let held = timeline(of: name) else { return nil }
        return InstanceRecord(
            instance: name, kind: instance.kind, family: instance.family,
            entries: held.timeline?.entries ?? [], sequence: held.timeline?.sequence, fallback: held.fallback,
            failure: held.failure)
    }
}
