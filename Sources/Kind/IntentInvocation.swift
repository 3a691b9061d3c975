import Timelines

/// Where a click landed, as i3bar and i3blocks report it.
public struct ClickLocation: Sendable, Hashable {
    public var button: MouseButton
    /// Pixels from the block's left edge, and the block's width, when the bar sends them.
    public var relativeX: Int?
    public var width: Int?
    /// The rest of what i3bar reports and i3blocks 1.5 passes on: the pointer's absolute position, its height within
    /// the block, the block's height, and the modifier keys held (`Shift`, `Mod4`, …).
    public var x: Int?
    public var y: Int?
    public var relativeY: Int?
    public var height: Int?
    public var modifiers: [String]

    public init(
        button: MouseButton, relativeX: Int? = nil, width: Int? = nil, x: Int? = nil, y: Int? = nil,
        relativeY: Int? = nil, height: Int? = nil, modifiers: [String] = []
    ) {
        self.button = button
        self.relativeX = relativeX
        self.width = width
        self.x = x
        self.y = y
        self.relativeY = relativeY
        self.height = height
        self.modifiers = modifiers
    }

    /// Where along the block the click landed, from 0 to 1; nil when the bar did not say.
    public var fraction: Double? {
        guard let relativeX, let width, width > 0 else { return nil }
        return min(max(Double(relativeX) / Double(width), 0), 1)
    }
}

/// One run of a kind's intent (WidgetKit's `AppIntent.perform()`), from a click or an `intent` line.
public struct IntentInvocation: Sendable, Hashable {
    public var intent: String
    /// The intent's parameters, typed by its `IntentSpec`.
    public var parameters: IntentValues
    /// Set when a click started it.
    public var click: ClickLocation?

    public init(intent: String, parameters: IntentValues = IntentValues(), click: ClickLocation? = nil) {
        self.intent = intent
        self.parameters = parameters
        self.click = click
    }
}

/// Why an intent could not run, worded for the log.
public struct IntentError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// What an intent did, and which widgets must reload to show it.
public struct IntentOutcome: Sendable, Hashable {
    /// A line for the log.
    public var message: String
    /// True when the intent changed data every widget of the kind shows (the shared store), so all of them
    /// reload, as WidgetKit's `reloadTimelines(ofKind:)`; false to reload only the clicked instance.
    public var reloadsKind: Bool
    /// A timeline the intent produced itself (the exec kind's click run, whose output is what i3blocks
    /// would show); the widget shows it instead of reloading.
    public var timeline: Timeline?
    /// A program the click starts instead of changing data, as an `on_click:` command would: a to-dos click off the
    /// items runs the widget's `app:`, as the seed's tap outside the items opens the app.
    public var command: [String]?

    public init(_ message: String, reloadsKind: Bool = true, timeline: Timeline? = nil, command: [String]? = nil) {
        self.message = message
        self.reloadsKind = reloadsKind
        self.timeline = timeline
        self.command = command
    }
}
