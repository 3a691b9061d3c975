import Dispatch
import Foundation
import Synchronization
import System
import Testing

/// Checks `condition` until it holds or `timeout` passes: a bounded wait on an event, not a fixed sleep.
///
/// Between checks the test suspends instead of blocking its thread. Swift Testing runs tests on a pool only as wide as
/// the machine has cores, so a test that blocks while a daemon works keeps every other test off that core. It wakes
/// as soon as something changes under `watching` (inotify on that directory and on every directory made under it
/// later: outputs, status files, the daemon's log), and otherwise after a short pause, for what no file shows (a
/// process that ended, another program's screen).
func waitFor(
    _ what: String, timeout: Duration = .seconds(10), watching directory: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    let changes = directory.flatMap { try? DirectoryChanges(watching: $0) }
    while true {
        if try condition() { return true }
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { break }
        if let changes {
            await changes.next(within: min(left, .milliseconds(100)))
        } else {
            try? await Task.sleep(for: min(left, .milliseconds(10)))
        }
    }
    Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
    return false
}

/// Wakes a waiting test when something changes in a directory tree (inotify, with a watch added for each directory
/// made under it later), so it looks again the moment there is something new to see.
final class DirectoryChanges {
    private let state: State
    private let source: any DispatchSourceRead

    init(watching root: String) throws {
        let state = State(inotify: try Inotify())
        state.queue.sync { state.watchTree(root) }
        source = DispatchSource.makeReadSource(fileDescriptor: state.inotify.fileDescriptor, queue: state.queue)
        // The handlers keep `state`, and with it the inotify descriptor, until the source is cancelled.
        source.setEventHandler { state.drain() }
        source.setCancelHandler { _ = state }
        source.activate()
        self.state = state
    }

    deinit { source.cancel() }

    /// Returns once something changed since the last call, or when `limit` has passed.
    func next(within limit: Duration) async {
        let state = self.state
        await withCheckedContinuation { continuation in
            state.queue.async { state.wait(continuation, limit: limit) }
        }
    }

    /// What the source's handler and the waits share; touched only on `queue`.
    private final class State: @unchecked Sendable {
        let queue = DispatchQueue(label: "widgetdTests.DirectoryChanges")
        let inotify: Inotify
        private var directories: [Inotify.Watch: String] = [:]
        private var changed = false
        private var waiter: CheckedContinuation<Void, Never>?
        private var generation = 0

        init(inotify: Inotify) { self.inotify = inotify }

        /// Watches `root` and every directory under it; one that cannot be watched (gone already) is left out.
        func watchTree(_ root: String) {
            guard let watch = try? inotify.watch(directory: root, mask: [.fileChanges, .modify, .movedFrom]) else {
                return
            }
            directories[watch] = root
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
                var isDirectory: ObjCBool = false
                let path = root + "/" + entry
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                    watchTree(path)
                }
            }
        }

        func drain() {
            for event in inotify.readEvents() where event.mask.contains([.create, .isDirectory]) {
                if let watch = event.watch, let parent = directories[watch] { watchTree(parent + "/" + event.name) }
            }
            changed = true
            wake()
        }

        func wait(_ continuation: CheckedContinuation<Void, Never>, limit: Duration) {
            waiter = continuation
            if changed { return wake() }
            generation += 1
            let current = generation
            let milliseconds = Int(
                limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000)
            queue.asyncAfter(deadline: .now() + .milliseconds(max(1, milliseconds))) { [self] in
                if generation == current { wake() }
            }
        }

        private func wake() {
            guard let waiter else { return }
            self.waiter = nil
            changed = false
            generation += 1
            waiter.resume()
        }
    }
}

/// Waits until `count` stays the same for a whole `window` (a process's context switches: it has settled), checking
/// once per window until `timeout` passes.
///
/// Here the pause is the measurement, not a stand-in for an event: that nothing happened for a while can only be seen
/// by letting the while pass. The test suspends meanwhile rather than blocking its thread.
func waitForQuiet(
    _ what: String, window: Duration, timeout: Duration = .seconds(10),
    sourceLocation: SourceLocation = #_sourceLocation, _ count: () throws -> Int
) async throws -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var previous = try count()
    while ContinuousClock.now < deadline {
        try await Task.sleep(for: window)
        let now = try count()
        if now == previous { return true }
        previous = now
    }
    Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
    return false
}

extension Trait where Self == StartsFirst {
    /// The suite's tests start with the run and wake before CPU-bound unit tests (`StartsFirst`). Give it to a suite:
    /// on a test it takes effect only once the pool reaches that test, after the tests of the modules before it.
    static var startsFirst: Self { StartsFirst() }
}

/// Runs a suite's tests at a higher task priority than the rest (child tasks inherit it).
///
/// Swift Testing starts every test at once, but on a pool as wide as the machine has cores (two here), which takes
/// them in turn, roughly in the order of their modules: a suite late in that order would start only after the
/// CPU-bound unit tests before it. For suites whose tests mostly wait on other programs (a .deb and lintian, the
/// benchmark, daemons): they are the run's longest chains, so they must start first, and their waiting costs the
/// others little.
struct StartsFirst: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Self.runAtHighPriority(function)
    }

    static func runAtHighPriority(_ function: @Sendable () async throws -> Void) async throws {
        try await withoutActuallyEscaping(function) { function in
            try await Task(priority: .high) { try await function() }.value
        }
    }
}

extension Trait where Self == AheadInLine {
    /// The test takes the next free daemon turn before the tests already waiting for one (`AheadInLine`).
    static var aheadInLine: Self { AheadInLine() }
}

/// Marks a test of a `.spawnsDaemons` suite that is long: its end is a long wait (a lifetime or a rate window that
/// must pass, with its turn given back), or it holds its turn or runs for about two seconds or more. It goes ahead of
/// the tests waiting for a turn, so that the longest start early in the run, beside the others' work, instead of
/// starting when most of them are done and then being the run's end (`scripts/test-turns` lists the longest).
struct AheadInLine: TestTrait {}

extension Trait where Self == DaemonGate {
    /// The tests of a suite that starts daemons, bars or shells take turns with every other such test (`DaemonGate`).
    static var spawnsDaemons: Self { DaemonGate() }
}

/// Lets only a few tests that start daemons (or bars, shells, compositors) run at once, across every suite.
///
/// Waiting no longer holds a thread, so without a gate every end-to-end test would start its processes at once: on
/// two shared cores dozens of daemons then miss their tests' deadlines together. A few at a time keeps the cores busy
/// with the daemons' own work while the rest of the suite runs beside them.
///
/// A test whose last part only lets time pass (a lifetime, a rate-limit window, an idle measurement) gives its turn
/// back for that part with `DaemonGate.giveBackTurn()`: its processes then sleep and cost the cores nothing, and the
/// next test starts instead of waiting seconds behind a sleeping one.
struct DaemonGate: SuiteTrait, TestTrait, TestScoping {
    /// How many such tests may run together: seven, or `WIDGETD_TEST_TURNS`. With five, the turns were all out from
    /// the run's first seconds to its end while the cores idled in its second half; ten made a follower miss its
    /// widget's removal (docs/development.md, "The test suite").
    static let width = ProcessInfo.processInfo.environment["WIDGETD_TEST_TURNS"].flatMap { Int($0) } ?? 7
    private static let turns = Turns(width)

    /// The turn the running test holds, if it holds one.
    @TaskLocal private static var held: Turn?

    var isRecursive: Bool { true }

    /// A scope for each test case (its turn) and, unlike the default for a recursive trait, for the suite itself.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite || testCase != nil ? self : nil
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if test.isSuite {
            // The suite's tests mostly wait on their processes: each wake-up should not queue behind every CPU-bound
            // unit test on the pool.
            try await StartsFirst.runAtHighPriority(function)
            return
        }
        let asked = ContinuousClock.now
        await Self.turns.take(aheadInLine: test.traits.contains { $0 is AheadInLine })
        let turn = Turn()
        defer {
            if turn.giveBack() { Task { await Self.turns.give() } }
            TurnLog.shared?.record(test.name, asked: asked, turn: turn)
        }
        try await Self.$held.withValue(turn) { try await function() }
    }

    /// Hands the running test's turn to the next test in line, for the rest of this test: call it once this test's
    /// processes have nothing left to do but wait (their own timers, a window that must pass). Does nothing in a test
    /// that holds no turn, or gave it back already.
    static func giveBackTurn() async {
        if let held, held.giveBack() { await turns.give() }
    }

    /// One test's turn, given back once: early by the test itself, or when the test ends.
    final class Turn: Sendable {
        let taken = ContinuousClock.now
        private let givenBack = Mutex<ContinuousClock.Instant?>(nil)

        /// When the turn was given back, if it was.
        var givenBackAt: ContinuousClock.Instant? { givenBack.withLock { $0 } }

        /// Whether this call gave the turn back (false when it was given back before).
        func giveBack() -> Bool {
            givenBack.withLock { instant in
                guard instant == nil else { return false }
                instant = .now
                return true
            }
        }
    }

    /// A counting semaphore for tasks: `take` suspends while every turn is out, `give` hands one back.
    actor Turns {
        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(_ count: Int) { free = count }

        /// - Parameter aheadInLine: wait before the tests already waiting (`AheadInLine`), not after them.
        func take(aheadInLine: Bool = false) async {
            if free > 0 {
                free -= 1
                return
            }
            await withCheckedContinuation { waiting.insert($0, at: aheadInLine ? 0 : waiting.count) }
        }

        func give() {
            if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
        }
    }
}
