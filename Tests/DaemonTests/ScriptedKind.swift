import Foundation
import Kind
import Synchronization
import Timelines

/// A kind whose timelines the test writes: `answer` gives each call's timeline from its `now`, or throws the failure
/// the widget is to show; `calls` counts the calls. In process, so a daemon run in the test (`DrivenDaemon`) starts no
/// program for it.
final class ScriptedKind: WidgetKind {
    /// A failure the kind reports, as a script's exit status would be.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let name: String
    let displayName = "Scripted"
    let summary = "A kind whose timelines the test writes."
    let families: [Family] = [.systemSmall]
    let parameters: [ParameterSpec] = []
    let intents: [IntentSpec] = []

    private let state: Mutex<(calls: Int, answer: @Sendable (Date) throws -> Timeline)>

    init(name: String, answer: @escaping @Sendable (Date) throws -> Timeline) {
        self.name = name
        state = Mutex((0, answer))
    }

    var calls: Int { state.withLock { $0.calls } }

    /// Answers the calls from now on with `answer`.
    func answer(with answer: @escaping @Sendable (Date) throws -> Timeline) {
        state.withLock { $0.answer = answer }
    }

    func placeholder(in context: ProviderContext) -> EntryContent { EntryContent(text: "…") }

    func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        TimelineEntry(date: context.now, content: EntryContent(text: name))
    }

    func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        let answer = state.withLock { state in
            state.calls += 1
            return state.answer
        }
        return try answer(context.now)
    }
}
