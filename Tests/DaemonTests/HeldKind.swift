import Foundation
import Kind
import Synchronization
import Timelines

/// A kind whose timelines wait until the test lets them go: a reload stays in flight, holding no thread, for as long
/// as a test needs it to (`release` answers every one waiting, and every later one at once).
final class HeldKind: WidgetKind {
    let name = "held"
    let displayName = "Held"
    let summary = "A kind whose reloads wait for the test."
    let families: [Family] = [.systemSmall]
    let parameters: [ParameterSpec] = []
    let intents: [IntentSpec] = []

    private let state = Mutex<(released: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func release() {
        let waiting = state.withLock { state in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func placeholder(in context: ProviderContext) -> EntryContent { EntryContent(text: "…") }

    func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        TimelineEntry(date: context.now, content: EntryContent(text: "held"))
    }

    func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        await withCheckedContinuation { continuation in
            let released = state.withLock { state in
                if !state.released { state.waiting.append(continuation) }
                return state.released
            }
            if released { continuation.resume() }
        }
        return Timeline(entries: [try await snapshot(for: configuration, in: context)], policy: .never)
    }
}
