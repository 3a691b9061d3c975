import FoundationEssentials

/// One instance as `widgetd list` shows it.
public struct InstanceStatus<Instance: ScheduledInstance>: Sendable {
    public var instance: Instance
    public var content: EntryContent
    public var policy: ReloadPolicy?
    public var nextReload: Date?
    public var isReloading: Bool
    public var lastError: String?
}
