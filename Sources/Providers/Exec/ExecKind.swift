import FoundationEssentials
import Kind
import Timelines

/// The plugin kind: runs the widget's `command:` and shows what it prints, so scripts written for
/// i3blocks run unchanged, and a script that knows its future can hand over a whole timeline in JSON.
public struct ExecKind: WidgetKind {
    public let name = "exec"
    public let displayName = "Command"
    public let summary =
        "Runs command: and shows its output (i3blocks lines, i3bar JSON or a JSON timeline) with i3blocks' block "
        + "properties; interval: persist keeps it running; one run at a time."
    public let families: [Family] = [
        .systemSmall, .systemMedium, .systemLarge, .systemExtraLarge, .accessoryInline, .accessoryRectangular,
        .accessoryCircular,
    ]
    public var showsWholeTextWithoutFamily: Bool { true }
    public let parameters: [ParameterSpec] = ExecKind.blockParameters
    public let intents = [
        IntentSpec(
            "click",
            summary: "Run the command with the click in BLOCK_BUTTON, button, x, y, relative_x…, as i3blocks 1.5 "
                + "does; a persist command gets it on its standard input.")
    ]
    public var acceptsAnyParameter: Bool { true }
    public var parameterExport: ParameterExport? { Self.scriptParameters }
    public var widgetKeys: [WidgetKeySpec] { ExecSettings.keys }

    /// A run blocks a thread for as long as the command runs; its own timeout comes before the engine's. `signal:`
    /// reloads the widget, as i3blocks' `signal=` does a block.
    public func runMode(for settings: WidgetSettings) -> RunMode {
        let exec = ExecSettings(settings)
        return RunMode(
            blocksThread: true, timeout: exec.isPersistent ? nil : exec.timeout, isPersistent: exec.isPersistent,
            reloadSignal: exec.signal)
    }

    /// The environment the daemon was started with, which commands inherit.
    let environment: [String: String]
    /// What each widget's runs printed, for its next run's environment.
    let printed = PrintedProperties()
    /// Each widget's line of runs; the kind's own, as what they printed is, so that two daemons in one process (the
    /// tests') never merge the runs of widgets that share a name.
    let lanes = RunLanes()

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "…")
    }

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        let timeline = try await self.timeline(for: configuration, in: context)
        return timeline.entry(at: context.now) ?? TimelineEntry(date: context.now, content: placeholder(in: context))
    }

    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        try run(configuration, in: context, click: nil).timeline
    }

    /// Every button runs the command again with `BLOCK_BUTTON` set, as i3blocks does.
    public func defaultIntent(for button: MouseButton) -> String? {
        "click"
    }

    /// A click or reload joins the widget's line in the order the daemon hands it out (`RunLanes`); an intent the kind
    /// does not declare runs nothing, and takes no place.
    public func placeInLine(for instance: String, invocation: IntentInvocation?) -> (any PlaceInLine)? {
        if let invocation, intent(named: invocation.intent) == nil { return nil }
        return lanes.place(instance, click: invocation.map(Self.click(of:)))
    }

    public func perform(
        _ invocation: IntentInvocation, for configuration: IntentValues, in context: ProviderContext
    ) async throws -> IntentOutcome {
        try requireDeclared(invocation)
        let click = Self.click(of: invocation)
        let ran = try run(configuration, in: context, click: click)
        // The run's button, which is a later click's when this one merged with clicks that came after it.
        let button = (ran.click ?? click).button.number
        return IntentOutcome("ran with BLOCK_BUTTON=\(button)", reloadsKind: false, timeline: ran.timeline)
    }

    /// The click an invocation runs the command with: the left button when it names none (an `intent` line).
    private static func click(of invocation: IntentInvocation) -> ClickLocation {
        invocation.click ?? ClickLocation(button: .left)
    }

    /// One run of the command, after any other run of this widget has finished (`RunLanes`).
    private func run(_ configuration: IntentValues, in context: ProviderContext, click: ClickLocation?) throws
        -> RunLanes.Ran
    {
        try lanes.run(context.instance, place: context.placeInLine as? RunLanes.Place, click: click) {
            click in
            try runNow(configuration, in: context, click: click)
        }
    }

    private func runNow(_ configuration: IntentValues, in context: ProviderContext, click: ClickLocation?) throws
        -> Timeline
    {
        let exec = ExecSettings(context.settings)
        guard !exec.command.isEmpty else { throw ExecError("no command: configured") }
        let result = try CommandRunner.run(
            exec.command, environment: environment(for: configuration, context: context, click: click),
            timeout: exec.timeout, owner: context.instance)
        let policy: ReloadPolicy = exec.interval.map { .after(context.now.addingTimeInterval($0)) } ?? .never
        let cut = "output cut at \(CommandRunner.outputCap / 1024) KiB; the rest was dropped"
        let parsed: Timeline
        do {
            parsed = try ExecOutput.timeline(
                from: result, now: context.now, defaultPolicy: policy, format: exec.format)
        } catch let error as ExecError where result.truncated {
            // JSON cut at the cap does not parse; say why it was cut, not only where it stopped.
            throw ExecError("\(error.description) (\(cut))")
        }
        printed.remember(result, format: exec.format, for: context.instance)
        var timeline = Self.styled(parsed, configuration: configuration)
        if result.truncated { timeline.notes.append(cut) }
        return timeline
    }

    /// Starts an `interval: persist` command; every line it prints (every JSON object with `format: json`) is styled
    /// with the section's properties and shown at once.
    public func startSession(
        for configuration: IntentValues, in context: ProviderContext,
        updates: @escaping @Sendable (SessionUpdate) -> Void
    ) throws -> any ProviderSession {
        let exec = ExecSettings(context.settings)
        guard !exec.command.isEmpty else { throw ExecError("no command: configured") }
        let printsJSON = exec.printsJSON
        // `interval: repeat`: each run's whole output when it exits, read as a one-shot run's is (i3blocks reads a
        // repeat block so: lines, or JSON, and 33 for urgent).
        let format = exec.format
        let readWhole: @Sendable (CommandResult, Date) throws -> Timeline = { result, now in
            var context = context
            context.now = now
            let timeline = try ExecOutput.timeline(from: result, now: now, defaultPolicy: .never, format: format)
            return Self.styled(timeline, configuration: configuration)
        }
        return try PersistentCommand(
            // Tagged like every run, so what it starts in the background (`setsid` included) ends with the widget
            // and the daemon (`ProcessHygiene`).
            argv: exec.command,
            environment: ProcessHygiene.tagged(
                environment(for: configuration, context: context, click: nil), owner: context.instance),
            printsJSON: printsJSON,
            readWhole: exec.repeats ? readWhole : nil,
            parse: { line, now in
                var content = EntryContent(text: line)
                if printsJSON {
                    guard
                        let entry = try ExecOutput.jsonTimeline(Array(line.utf8), now: now, defaultPolicy: .never)
                            .entries.first
                    else { throw ExecError("printed an empty JSON timeline") }
                    content = entry.content
                }
                var context = context
                context.now = now
                return Self.styled(
                    Timeline(entries: [TimelineEntry(date: now, content: content)], policy: .never),
                    configuration: configuration)
            }, clock: context.clock, updates: updates)
    }

    /// The daemon's environment plus `WIDGETD_*`, and what i3blocks gives a block's command so its scripts run
    /// unchanged: `BLOCK_*`, and each `intent:` value under its own name too, as i3blocks 1.5 exports a block's
    /// properties (i3blocks-contrib scripts are configured with keys such as `LABEL=` and `T_WARN=`).
    func environment(for configuration: IntentValues, context: ProviderContext, click: ClickLocation?)
        -> [String: String]
    {
        var environment = self.environment
        for (name, value) in configuration.values {
            guard let text = Self.environmentText(value) else { continue }
            environment["WIDGETD_PARAM_" + Self.environmentName(name)] = text
            if Self.isExportedUnderItsOwnName(name) {
                environment[name] = text
            }
        }
        // What the last run printed, under its own names, over the config's values (`PrintedProperties`).
        for (name, value) in printed.recalled(for: context.instance)
        where Self.isExportedUnderItsOwnName(name) {
            environment[name] = value
        }
        environment["WIDGETD_INSTANCE"] = context.instance
        environment["WIDGETD_FAMILY"] = context.family.rawValue
        // The i3blocks section's name when it differs from the widget's (an imported `[volume]` made `volume_2`),
        // so a `command=scripts/$BLOCK_NAME` still finds its script.
        let blockName = configuration.string("name") ?? context.instance
        environment["BLOCK_NAME"] = blockName
        environment["BLOCK_INSTANCE"] = configuration.string("instance") ?? ""
        environment["BLOCK_INTERVAL"] = ExecSettings(context.settings).intervalText
        environment["name"] = blockName
        environment["interval"] = environment["BLOCK_INTERVAL"]
        // The click's keys under i3bar's names, as i3blocks 1.5 exports them; the legacy BLOCK_X and BLOCK_Y are
        // i3bar's x and y, the pointer on the screen. A run that is no click has them empty, as i3blocks leaves them.
        let number = { (value: Int?) in value.map(String.init) ?? "" }
        environment["BLOCK_BUTTON"] = click.map { String($0.button.number) } ?? ""
        environment["button"] = environment["BLOCK_BUTTON"]
        environment["x"] = number(click?.x)
        environment["y"] = number(click?.y)
        environment["BLOCK_X"] = environment["x"]
        environment["BLOCK_Y"] = environment["y"]
        environment["relative_x"] = number(click?.relativeX)
        environment["relative_y"] = number(click?.relativeY)
        environment["width"] = number(click?.width)
        environment["height"] = number(click?.height)
        // i3blocks passes the array on as i3bar wrote it.
        environment["modifiers"] =
            click.map { "[" + $0.modifiers.map { "\"\($0)\"" }.joined(separator: ",") + "]" } ?? ""
        return environment
    }

    /// Whether a parameter reaches the script under its own name too, as i3blocks 1.5 exports a block's keys:
    /// `T_WARN` for `$T_WARN`, and `max-load` or `T.WARN` as they are, for a script that reads its environment by
    /// name (a shell reads only the plain ones). Not the names widgetd itself sets, nor one an environment cannot hold.
    /// widgets.yaml's names are letters, digits, `_`, `-` and `.` (`ConfigValidator`).
    static func isExportedUnderItsOwnName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("=") && !name.hasPrefix("WIDGETD_") && !name.hasPrefix("BLOCK_")
    }
}
