import Foundation
import Testing

@testable import Config
@testable import Timelines

@Suite("deadline heap")
struct DeadlineHeapTests {
    let t0 = at("2026-06-01T12:00:00+00:00")

    @Test func droppingStaleItemsKeepsTheRestInDateOrder() {
        var heap = DeadlineHeap()
        // Dates in a scrambled but repeatable order, some equal.
        let items = (0..<500).map { index in
            DeadlineHeap.Item(
                date: t0.addingTimeInterval(Double(index * 7919 % 211)), index: index % 50, generation: UInt64(index))
        }
        for item in items { heap.push(item) }
        heap.removeAll { $0.generation % 3 == 0 }
        var popped: [DeadlineHeap.Item] = []
        while let item = heap.popFirst() { popped.append(item) }
        let kept = items.filter { $0.generation % 3 != 0 }
        #expect(popped.count == kept.count)
        #expect(Set(popped.map(\.generation)) == Set(kept.map(\.generation)))
        #expect(zip(popped, popped.dropFirst()).allSatisfy { $0.date <= $1.date })
    }

    /// Requests while nothing is in flight leave a superseded wake-up of every instance in the heap each time, so the
    /// heap drops its stale items several times here; every instance must still reload exactly once.
    @Test func requestsThatSupersedeDeadlinesStillReloadEveryInstanceOnce() {
        let names = (0..<100).map { "w\($0)" }
        var engine = Engine(instances: names.map { instance($0) }, placeholders: [:], now: t0)
        for round in 1...10 {
            engine.request(.all, now: t0.addingTimeInterval(Double(round) / 100))
        }
        let actions = engine.advance(now: t0.addingTimeInterval(1))
        let reloaded = actions.compactMap { action -> String? in
            if case .reload(let name, _) = action { return name }
            return nil
        }
        #expect(reloaded.sorted() == names.sorted())
        // Nothing else is due until the calls time out.
        #expect(engine.advance(now: t0.addingTimeInterval(2)).isEmpty)
        #expect(engine.nextDeadline().map { $0 > t0.addingTimeInterval(2) } == true)
    }
}
