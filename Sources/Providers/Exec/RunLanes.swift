import Basics
import FoundationEssentials
import Kind
import Timelines

/// Keeps the runs of one widget's command from overlapping, as i3blocks never runs a block twice at once (scripts
/// keep state in files). A reload or click that comes during a run waits for it and runs next; several that wait
/// together merge into that one run, the last click winning, and all of them get its result. None is dropped.
///
/// A call takes its place in the line when the daemon hands it out (`place(_:click:)`, on the daemon's loop thread),
/// not when its thread gets to run: the threads of three clicks start in any order, and a click's thread may start
/// after the run it came during has ended. So which run a call joins, and which click wins, follow the order the daemon
/// saw them in.
///
/// Calls block: exec runs on threads of their own (`RunMode.blocksThread`), one per call.
final class RunLanes: @unchecked Sendable {
    /// One run of the command, which the calls placed in it share.
    fileprivate final class Run {
        var click: ClickLocation?
        var result: Result<Timeline, any Error>?
        var started = false
        /// Places in it not given up yet.
        var places = 0
    }

    /// The run going or about to go, and the one the calls that come meanwhile merge into.
    private struct Lane {
        var current: Run?
        var next: Run?
    }

    /// A call's place in its widget's line: the run it joined.
    final class Place: PlaceInLine, @unchecked Sendable {
        fileprivate let lanes: RunLanes
        fileprivate let name: String
        fileprivate let run: Run

        fileprivate init(lanes: RunLanes, name: String, run: Run) {
            self.lanes = lanes
            self.name = name
            self.run = run
        }

        deinit {
            lanes.giveUp(self)
        }
    }

    private let condition = Condition()
    private var lanes: [String: Lane] = [:]

    /// Places a call of `name`'s command in its line: in a run of its own when none goes or waits, else in the run
    /// after the current one, its click (nil for a reload) replacing the one merged before it.
    func place(_ name: String, click: ClickLocation?) -> Place {
        condition.lock()
        defer { condition.unlock() }
        var lane = lanes[name] ?? Lane()
        let run: Run
        if lane.current == nil {
            run = Run()
            lane.current = run
        } else if let next = lane.next {
            run = next
        } else {
            run = Run()
            lane.next = run
        }
        if let click { run.click = click }
        run.places += 1
        lanes[name] = lane
        return Place(lanes: self, name: name, run: run)
    }

    /// What a call got: its run's timeline, and the click the run had (the last merged in; nil for reloads alone).
    struct Ran {
        var timeline: Timeline
        var click: ClickLocation?
    }

    /// Runs `body` with the click of `place`'s run once the run before it has ended, or waits for the run another call
    /// of it started and returns its result. `place`: nil for a call the daemon did not hand out (one placed now).
    func run(
        _ name: String, place: Place?, click: ClickLocation?, _ body: (ClickLocation?) throws -> Timeline
    ) throws -> Ran {
        let place = place ?? self.place(name, click: click)
        let run = place.run
        // Kept until the call returns: given up before, its run would be dropped as nobody's.
        let timeline = try withExtendedLifetime(place) { try self.run(run, of: name, body) }
        // Fixed once the run started: a call placed later joins the next one.
        return Ran(timeline: timeline, click: run.click)
    }

    private func run(_ run: Run, of name: String, _ body: (ClickLocation?) throws -> Timeline) throws -> Timeline {
        condition.lock()
        while true {
            if let result = run.result {
                condition.unlock()
                return try result.get()
            }
            if !run.started, lanes[name]?.current === run {
                // This thread runs it for every call placed in it.
                run.started = true
                let click = run.click
                condition.unlock()
                let result = Result { try body(click) }
                condition.lock()
                run.result = result
                advance(name)
                condition.broadcast()
                condition.unlock()
                return try result.get()
            }
            condition.wait()
        }
    }

    /// The current run of `name` ended or was given up: the next one goes. Called with the lock held.
    private func advance(_ name: String) {
        guard var lane = lanes[name] else { return }
        lane.current = lane.next
        lane.next = nil
        lanes[name] = lane.current == nil ? nil : lane
    }

    /// A place given up (its call returned, or never ran): a run not started whose every place is given up is dropped.
    private func giveUp(_ place: Place) {
        condition.lock()
        defer { condition.unlock() }
        let run = place.run
        run.places -= 1
        guard run.places == 0, !run.started, let lane = lanes[place.name] else { return }
        if lane.current === run {
            advance(place.name)
            condition.broadcast()
        } else if lane.next === run {
            lanes[place.name]?.next = nil
        }
    }
}
