import Basics
import FoundationEssentials
import Kind
import Timelines

/// Keeps the runs of one widget's command from overlapping, as i3blocks never runs a block twice at once (scripts
/// keep state in files). A reload or click that comes during a run waits for it and runs next; several that wait
/// together merge into that one run, the last click winning, and all of them get its result. None is dropped.
///
/// Calls block: exec runs on threads of their own (`RunMode.blocksThread`), one per call.
final class RunLanes: @unchecked Sendable {
    static let shared = RunLanes()

    /// The run the waiting requests of one lane will share.
    private final class Batch {
        var click: ClickLocation?
        var result: Result<Timeline, any Error>?
        var started = false
    }

    private struct Lane {
        var running = false
        var next: Batch?
    }

    private let condition = Condition()
    private var lanes: [String: Lane] = [:]

    /// Runs `body` for `name` once no other run of it is going; `body` gets the click to run with (this one, or a
    /// later one merged in).
    func run(
        _ name: String, click: ClickLocation?, _ body: (ClickLocation?) throws -> Timeline
    ) throws -> Timeline {
        condition.lock()
        if lanes[name]?.running != true {
            lanes[name, default: Lane()].running = true
            condition.unlock()
            return try finish(name, result: Result { try body(click) })
        }
        let batch: Batch
        if let next = lanes[name]?.next {
            batch = next
            if let click { batch.click = click }
        } else {
            batch = Batch()
            batch.click = click
            lanes[name]?.next = batch
        }
        while true {
            if let result = batch.result {
                condition.unlock()
                return try result.get()
            }
            if !batch.started, lanes[name]?.running != true {
                // This thread runs the batch for everyone in it.
                batch.started = true
                lanes[name]?.running = true
                lanes[name]?.next = nil
                let click = batch.click
                condition.unlock()
                let result = Result { try body(click) }
                condition.lock()
                batch.result = result
                condition.unlock()
                return try finish(name, result: result)
            }
            condition.wait()
        }
    }

    private func finish(_ name: String, result: Result<Timeline, any Error>) throws -> Timeline {
        condition.lock()
        lanes[name]?.running = false
        if lanes[name]?.next == nil { lanes[name] = nil }
        condition.broadcast()
        condition.unlock()
        return try result.get()
    }
}
