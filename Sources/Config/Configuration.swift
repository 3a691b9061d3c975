import Formats
import FoundationEssentials
import Kind
import TimeZones
import Timelines
import YAML

/// A checked `widgets.yaml`: settings and widget instances in file order.
public struct Configuration: Sendable {
    public var settings: Settings
    public var widgets: [WidgetInstance]
    /// The `bars:` section: which widgets each `widgetd bar --bar NAME` shows, in order.
    public var bars: [BarDefinition] = []
    /// What the kinds' top-level sections held (`KindRegistry.sections`), by key; `section(_:)` reads one as its type.
    public internal(set) var sections: [String: any Sendable] = [:]

    public init(settings: Settings = Settings(), widgets: [WidgetInstance] = []) {
        self.settings = settings
        self.widgets = widgets
    }
}

/// The `settings:` section. Paths are kept as written (`~` unexpanded); the daemon resolves them.
public struct Settings: Sendable, Hashable {
    /// Where rendered entries go; nil means `$XDG_RUNTIME_DIR/widgetd/out`.
    public var outputDirectory: String?
    /// The shared SQLite store; nil means `$XDG_DATA_HOME/widgetd/store.sqlite`.
    public var store: String?

    public init(outputDirectory: String? = nil, store: String? = nil) {
        self.outputDirectory = outputDirectory
        self.store = store
    }
}

/// One placed widget: a named instance of a kind, with its family and parameters.
///
/// What most widgets leave unset (a schedule, a zone, clicks, widget-level keys, the run mode) lives in one shared,
/// immutable box (`Extras`), so an instance is about 100 bytes inline rather than 450: the engine holds 10,000 of them.
public struct WidgetInstance: Sendable, Hashable {
    public var name: String
    public var kind: String
    /// Every parameter of the kind, defaults filled in.
    public var intent: IntentValues
    public var outputs: [OutputFormat]
    /// Where the instance's name stands in the file.
    public var mark: YAMLMark
    /// The rarely set fields; every instance without them shares `Extras.none`.
    private var extras: Extras
    // The one-byte fields last: the engine's state for the instance keeps its own flags in the bytes after them.
    public var family: Family
    /// False when the config names no `family:` and `family` is the kind's default (an exec widget then shows its
    /// script's text whole, as i3blocks does).
    public var familyIsChosen: Bool

    /// Extra reload times.
    public var schedule: CronExpression? {
        get { extras.schedule }
        set { extras = extras.with { $0.schedule = newValue } }
    }
    /// The zone `schedule` is read in; nil means local time.
    public var timeZone: Zone? {
        get { extras.timeZone }
        set { extras = extras.with { $0.timeZone = newValue } }
    }
    public var onClick: [MouseButton: ClickAction] {
        get { extras.onClick }
        set { extras = extras.with { $0.onClick = newValue } }
    }
    /// The values of the kind's own widget-level keys (`exec`'s `command:`, `interval:`).
    public var settings: WidgetSettings {
        get { extras.settings }
        set { extras = extras.with { $0.settings = newValue } }
    }
    /// How the daemon runs its provider, as the kind decided from `settings`.
    public var runMode: RunMode {
        get { extras.runMode }
        set { extras = extras.with { $0.runMode = newValue } }
    }

    public init(
        name: String, kind: String, family: Family, familyIsChosen: Bool = true, intent: IntentValues = IntentValues(),
        schedule: CronExpression? = nil, timeZone: Zone? = nil, outputs: [OutputFormat] = [.plain],
        onClick: [MouseButton: ClickAction] = [:], settings: WidgetSettings = WidgetSettings(),
        runMode: RunMode = .inProcess,
        mark: YAMLMark = YAMLMark(line: 1, column: 1)
    ) {
        self.name = name
        self.kind = kind
        self.family = family
        self.familyIsChosen = familyIsChosen
        self.intent = intent
        self.outputs = outputs
        self.mark = mark
        // Field by field, not `Fields`' derived `==` on a whole new value, which compares every field through copies:
        // this runs for every widget `check` reads (docs/PERFORMANCE.md, "First writes and start-up").
        let isPlain =
            schedule == nil && timeZone == nil && onClick.isEmpty && settings.values.isEmpty && runMode == .inProcess
        extras =
            isPlain
            ? Extras.none
            : Extras(
                Extras.Fields(
                    schedule: schedule, timeZone: timeZone, onClick: onClick, settings: settings, runMode: runMode))
    }

    /// The rarely set fields, shared between copies and replaced whole when one changes.
    private final class Extras: Sendable, Hashable {
        struct Fields: Sendable, Hashable {
            var schedule: CronExpression?
            var timeZone: Zone?
            var onClick: [MouseButton: ClickAction]
            var settings: WidgetSettings
            var runMode: RunMode
        }

        static let none = Extras(
            Fields(schedule: nil, timeZone: nil, onClick: [:], settings: WidgetSettings(), runMode: .inProcess))

        let fields: Fields
        var schedule: CronExpression? { fields.schedule }
        var timeZone: Zone? { fields.timeZone }
        var onClick: [MouseButton: ClickAction] { fields.onClick }
        var settings: WidgetSettings { fields.settings }
        var runMode: RunMode { fields.runMode }

        init(_ fields: Fields) {
            self.fields = fields
        }

        func with(_ change: (inout Fields) -> Void) -> Extras {
            var fields = fields
            change(&fields)
            return Extras(fields)
        }

        static func == (lhs: Extras, rhs: Extras) -> Bool {
            lhs === rhs || lhs.fields == rhs.fields
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(fields)
        }
    }
}

/// What a click does: run one of the kind's intents, or start a command.
public enum ClickAction: Sendable, Hashable {
    case intent(String)
    /// An argv list, started detached; no shell unless the user writes `sh -c`.
    case command([String])
}

extension WidgetInstance {
    /// Equal in everything but where the instance stands in the file: moving lines restarts nothing.
    public func sameSettings(as other: WidgetInstance) -> Bool {
        var other = other
        other.mark = mark
        return self == other
    }
}
