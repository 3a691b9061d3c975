import Config
import Foundation
import Kind
import Providers
import Synchronization
import TestSupport
import Testing
import Timelines

@testable import Daemon

/// A store-backed kind whose one intent only counts its runs, so a test sees whether it ran at all.
private struct CountingStoreKind: WidgetKind {
    static let runs = Atomic<Int>(0)

    let name = "counted"
    let displayName = "Counted"
    let summary = "A store-backed kind for the store's patience."
    let families: [Family] = [.systemSmall]
    let parameters: [ParameterSpec] = []
    let intents = [IntentSpec("toggle", summary: "Counts.")]
    var usesStore: Bool { true }

    func placeholder(in context: ProviderContext) -> EntryContent { EntryContent(text: "…") }

    func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        TimelineEntry(date: context.now, content: EntryContent(text: "counted"))
    }

    func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        Timeline(entries: [try await snapshot(for: configuration, in: context)], policy: .never)
    }

    func perform(_ invocation: IntentInvocation, for configuration: IntentValues, in context: ProviderContext)
        async throws -> IntentOutcome
    {
        Self.runs.add(1, ordering: .sequentiallyConsistent)
        return IntentOutcome("counted")
    }
}

/// An intent on a store widget that could not start within `ProviderRunner.storePatience` of being asked (the store's
/// thread was busy) is not run at all, so a `--wait` told "failed" never sees the change land later. The runner reads
/// a clock the test has moved: the provider thread is real, the waiting is not.
@Suite(
    "the store's patience: an intent that waited too long for the store's thread is not run", .serialized,
    .waitsOnThreadsOfItsOwn)
struct StorePatienceTests {
    private static let start = Date(timeIntervalSince1970: 2_000_000_000)
    private static let clock = ManualClock(start)
    private static let posted = DispatchSemaphore(value: 0)
    private static let queue = CompletionQueue(wake: { StorePatienceTests.posted.signal() })
    /// Kept for the test process's life: its threads wait on it for good.
    private static let runner = ProviderRunner(
        registry: KindRegistry([CountingStoreKind()]), queue: queue, executor: ProviderExecutor(threads: 1),
        store: StoreAccess(path: "/nonexistent/widgetd-store-patience.sqlite"), clock: clock)
    private static let widget = WidgetInstance(name: "count", kind: "counted", family: .systemSmall)

    /// Asks for the intent `waited` seconds before the clock's time, as if the store's thread came free only now.
    private static func outcome(afterWaiting waited: TimeInterval) throws -> Result<IntentOutcome, IntentError> {
        let asked = clock.now
        clock.advance(by: waited)
        runner.perform(
            IntentInvocation(intent: "toggle"), on: widget, now: asked, current: nil, acknowledgement: nil)
        #expect(posted.wait(timeout: .now() + 10) == .success, "the intent's outcome was posted")
        let completions = queue.drain()
        guard case .intent(let completion)? = completions.first, completions.count == 1 else {
            throw CancellationError()
        }
        return completion.outcome
    }

    @Test func anIntentStartedWithinThePatienceRunsAndOnePastItDoesNot() throws {
        let before = CountingStoreKind.runs.load(ordering: .sequentiallyConsistent)
        let inTime = try Self.outcome(afterWaiting: ProviderRunner.storePatience - 1)
        #expect((try? inTime.get())?.message == "counted")
        #expect(CountingStoreKind.runs.load(ordering: .sequentiallyConsistent) == before + 1)

        let late = try Self.outcome(afterWaiting: ProviderRunner.storePatience)
        guard case .failure(let error) = late else {
            Issue.record("an intent that waited out the store's patience ran")
            return
        }
        #expect("\(error)".contains("not run: the store stayed locked by another process for 5 s; nothing was changed"))
        #expect(CountingStoreKind.runs.load(ordering: .sequentiallyConsistent) == before + 1)
    }
}
