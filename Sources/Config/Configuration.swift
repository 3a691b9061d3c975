import FoundationEssentials
import Kind
import Output
import TimeZones
import Timelines
import YAML

/// A checked `widgets.yaml`: settings and widget instances in file order.
public struct Configuration: Sendable {
    public var settings: Settings
    public var widgets: [WidgetInstance]
    /// The `bars:` section: which widgets each `widgetd bar --bar NAME` shows, in order.
    public var bars: [BarDefinition] = []
    /// `plugins:`: plugin name → argv, beside the plugins found in the plugin directories (docs/PLUGINS.md).
    public var plugins: [PluginCommand] = []

    public init(settings: Settings = Settings(), widgets: [WidgetInstance] = []) {
        self.settings = settings
        self.widgets = widgets
    }
}

/// A plugin named in `plugins:`: how to start it.
public struct PluginCommand: Sendable, Hashable {
    public var name: String
    public var argv: [String]

    public init(name: String, argv: [String]) {
        self.name = name
        self.argv = argv
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
public struct WidgetInstance: Sendable, Hashable {
    public var name: String
    public var kind: String
    public var family: Family
    /// False when the config names no `family:` and `family` is the kind's default (an exec widget then shows its
    /// script's text whole, as i3blocks does).
    public var familyIsChosen: Bool
    /// Every parameter of the kind, defaults filled in.
    public var intent: IntentValues
    /// Extra reload times.
    public var schedule: CronExpression?
    /// The zone `schedule` is read in; nil means local time.
    public var timeZone: Zone?
    public var outputs: [OutputFormat]
    public var onClick: [MouseButton: ClickAction]
    /// The values of the kind's own widget-level keys (`exec`'s `command:`, `interval:`).
    public var settings: WidgetSettings
    /// How the daemon runs its provider, as the kind decided from `settings`.
    public var runMode: RunMode
    /// Where the instance's name stands in the file.
    public var mark: YAMLMark

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
        self.schedule = schedule
        self.timeZone = timeZone
        self.outputs = outputs
        self.onClick = onClick
        self.settings = settings
        self.runMode = runMode
        self.mark = mark
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
