import FoundationEssentials
import TimeZones

/// What the engine knows of a configured instance: its name, what reloads it on its own, and how its provider runs.
///
/// The engine is generic over it so that it depends on no config, kind or YAML: the daemon hands it the checked
/// config's instances (`WidgetInstance` conforms in the `Config` target) and gets them back in `status(of:now:)`.
public protocol ScheduledInstance: Sendable {
    /// The unique name the engine's actions and requests use.
    var name: String { get }
    /// The kind's name, for `reload kind K`.
    var kind: String { get }
    /// Extra reload times.
    var schedule: CronExpression? { get }
    /// The zone `schedule` is read in; nil means local time.
    var timeZone: Zone? { get }
    /// How long one provider call may take, when the kind asks for longer than the engine's default.
    var callTimeout: TimeInterval? { get }
    /// The provider keeps running and pushes timelines (`Engine.install`) instead of answering calls.
    var isPersistent: Bool { get }
    /// Equal in everything that matters to the running instance: an instance that is not restarts on reconfigure.
    func sameSettings(as other: Self) -> Bool
}
