import Foundation
import Kind
import Synchronization
import Testing
import Timelines

@testable import Providers

/// One widget's command runs are never two at once, and the calls that come during a run merge into the next, the last
/// click winning, in the order the daemon handed them out (`RunLanes.place`), whatever order their threads come in.
@Suite("exec: run lanes")
struct RunLanesTests {
    let name = "stateful"

    /// The buttons the runs were given, in the order they ran (0: a reload's, no click), and what each call got.
    final class Runs: Sendable {
        private let buttons = Mutex<[Int]>([])
        private let results = Mutex<[String]>([])
        var all: [Int] { buttons.withLock { $0 } }
        var got: [String] { results.withLock { $0 } }

        func record(_ text: String) {
            results.withLock { $0.append(text) }
        }

        func body(_ click: ClickLocation?) -> Timeline {
            let count = buttons.withLock {
                $0.append(click?.button.number ?? 0)
                return $0.count
            }
            return Timeline(
                entries: [TimelineEntry(date: Date(), content: EntryContent(text: "run \(count)"))], policy: .never)
        }
    }

    /// Runs `place`'s call on a thread of its own, its run held until `gate` is signalled; `ended` is signalled once it
    /// returned.
    private func call(
        _ lanes: RunLanes, _ place: RunLanes.Place, _ runs: Runs, gate: DispatchSemaphore? = nil,
        ended: DispatchSemaphore
    ) {
        let name = self.name
        Thread.detachNewThread {
            let ran = try? lanes.run(name, place: place, click: nil) { click in
                gate?.wait()
                return runs.body(click)
            }
            let text = ran?.timeline.entries.first?.content.text ?? "failed"
            runs.record(text + (ran?.click.map { " b\($0.button.number)" } ?? ""))
            ended.signal()
        }
    }

    @Test func clicksPlacedDuringARunMergeIntoTheNextWithTheLastPlacedWinningWhicheverThreadComesFirst() {
        let lanes = RunLanes()
        let runs = Runs()
        let reload = lanes.place(name, click: nil)
        let clicks = [MouseButton.left, .middle, .right].map { lanes.place(name, click: ClickLocation(button: $0)) }
        let ended = DispatchSemaphore(value: 0)
        // The clicks' threads start before the reload's, the last click's first: none may run before the reload's run,
        // and the merged run takes the click placed last, not the one whose thread came last.
        for place in clicks.reversed() { call(lanes, place, runs, ended: ended) }
        let gate = DispatchSemaphore(value: 0)
        call(lanes, reload, runs, gate: gate, ended: ended)
        gate.signal()
        for _ in 0..<4 {
            #expect(ended.wait(timeout: .now() + 10) == .success, "a call still waits: \(runs.got)")
        }
        #expect(runs.all == [0, 3])
        // Each click is told the button its run had: the last click's.
        #expect(runs.got.sorted() == ["run 1", "run 2 b3", "run 2 b3", "run 2 b3"])
    }

    @Test func aPlaceGivenUpBeforeItsCallRanHoldsUpNoLine() {
        let lanes = RunLanes()
        let runs = Runs()
        // An intent refused before it ran: its place goes, and with it the run it alone was in.
        var refused: RunLanes.Place? = lanes.place(name, click: ClickLocation(button: .left))
        let next = lanes.place(name, click: ClickLocation(button: .right))
        #expect(refused != nil)
        refused = nil
        let ended = DispatchSemaphore(value: 0)
        call(lanes, next, runs, ended: ended)
        #expect(ended.wait(timeout: .now() + 10) == .success, "the next call waits for a run that never comes")
        #expect(runs.all == [3])
        // A call placed after the line emptied runs at once, on its own.
        let later = lanes.place(name, click: nil)
        call(lanes, later, runs, ended: ended)
        #expect(ended.wait(timeout: .now() + 10) == .success, "a call on an empty line waits")
        #expect(runs.all == [3, 0])
    }
}
