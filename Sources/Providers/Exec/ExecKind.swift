import Foundation
import Scheduler

/// The plugin kind: runs the widget's `command:` and shows what it prints, so scripts written for
/// i3blocks run unchanged, and a script that knows its future can hand over a whole timeline in JSON.
public struct ExecKind: WidgetKind {
    public let name = "exec"
    public let displayName = "Command"
    public let summary = "Runs command: and shows its output: i3blocks lines, or a JSON timeline."
    public let families: [Family] = [
        .systemSmall, .systemMedium, .systemLarge, .systemExtraLarge, .accessoryInline, .accessoryRectangular,
        .accessoryCircular,
    ]
    public let parameters: [ParameterSpec] = []
    public let intents = [
        IntentSpec("click", summary: "Run the command with BLOCK_BUTTON set, as i3blocks does on a click.")
    ]
    public var acceptsAnyParameter: Bool { true }
    public var runsCommands: Bool { true }

    /// The environment the daemon was started with, which commands inherit.
    let environment: [String: String]

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
        try run(configuration, in: context, click: nil)
    }

    /// Every button runs the command again with `BLOCK_BUTTON` set, as i3blocks does.
    public func defaultIntent(for button: MouseButton) -> String? {
        "click"
    }

    public func perform(
        _ invocation: IntentInvocation, for configuration: IntentValues, in context: ProviderContext
    ) async throws -> IntentOutcome {
        guard invocation.intent == "click" else {
            throw IntentError("kind 'exec' has no intent '\(invocation.intent)'")
        }
        let click = invocation.click ?? ClickLocation(button: .left)
        let timeline = try run(configuration, in: context, click: click)
        return IntentOutcome("ran with BLOCK_BUTTON=\(click.button.number)", reloadsKind: false, timeline: timeline)
    }

    private func run(_ configuration: IntentValues, in context: ProviderContext, click: ClickLocation?) throws
        -> Timeline
    {
        guard let exec = context.exec else { throw ExecError("no command: configured") }
        let result = try CommandRunner.run(
            exec.command, environment: environment(for: configuration, context: context, click: click),
            timeout: exec.timeout)
        let policy: ReloadPolicy = exec.interval.map { .after(context.now.addingTimeInterval($0)) } ?? .never
        var timeline = try ExecOutput.timeline(from: result, now: context.now, defaultPolicy: policy)
        if result.truncated {
            timeline.notes.append("output cut at \(CommandRunner.outputCap / 1024) KiB; the rest was dropped")
        }
        return timeline
    }

    /// The daemon's environment plus `WIDGETD_*`, and i3blocks' `BLOCK_*` so its scripts feel at home.
    func environment(for configuration: IntentValues, context: ProviderContext, click: ClickLocation?)
        -> [String: String]
    {
        var environment = self.environment
        environment["WIDGETD_INSTANCE"] = context.instance
        environment["WIDGETD_FAMILY"] = context.family.rawValue
        environment["BLOCK_NAME"] = context.instance
        environment["BLOCK_INSTANCE"] = configuration.string("instance") ?? ""
        for (name, value) in configuration.values {
            if case .string(let text) = value { environment["WIDGETD_PARAM_" + Self.environmentName(name)] = text }
        }
        environment["BLOCK_BUTTON"] = click.map { String($0.button.number) } ?? ""
        environment["BLOCK_X"] = click?.relativeX.map(String.init) ?? ""
        environment["BLOCK_Y"] = ""
        return environment
    }

    /// `max-age` → `MAX_AGE`.
    static func environmentName(_ name: String) -> String {
        String(name.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
