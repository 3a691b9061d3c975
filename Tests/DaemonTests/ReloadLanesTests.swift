import Testing

@testable import Daemon

@Suite("reload lanes: each lane of provider threads with its own limit")
struct ReloadLanesTests {
    @Test func lanesHandOutInOrderWithinTheirOwnLimits() throws {
        var lanes = ReloadLanes()
        lanes.add("disk", token: 1, lane: .shared)
        lanes.add("todos", token: 2, lane: .store)
        lanes.add("motivation", token: 3, lane: .store)
        lanes.add("script", token: 4, lane: .commands)
        var handed: [String] = []
        while let (reload, _) = lanes.next() { handed.append(reload.instance) }
        // The store runs one at a time: the second store-backed reload waits for the first.
        #expect(handed == ["disk", "script", "todos"])
        lanes.finished(.shared)
        #expect(lanes.next() == nil, "a shared slot does not start a store reload")
        lanes.finished(.store)
        let taken = lanes.next()
        let next = try #require(taken)
        #expect(next.reload == ReloadQueue.Reload(instance: "motivation", token: 3) && next.lane == .store)
    }

    /// A second's reloads: the calls that run on threads are handed out before those the loop answers itself, in
    /// whatever order they were queued, so that they run while the loop computes the others.
    @Test func theLoopsOwnAnswersAreHandedOutAfterEveryOtherLane() {
        var lanes = ReloadLanes()
        lanes.add("cpu", token: 1, lane: .loop)
        lanes.add("disk", token: 2, lane: .shared)
        lanes.add("memory", token: 3, lane: .loop)
        lanes.add("script", token: 4, lane: .commands)
        lanes.add("todos", token: 5, lane: .store)
        lanes.add("ticker", token: 6, lane: .plugins)
        var handed: [String] = []
        while let (reload, _) = lanes.next() { handed.append(reload.instance) }
        #expect(handed == ["disk", "script", "todos", "ticker", "cpu", "memory"])
    }

    /// Calls to a plugin that never answers fill only the plugins' lane: a disk's reload still starts.
    @Test func aFullPluginLaneHoldsUpNoOtherLane() {
        var lanes = ReloadLanes()
        for token in 1...100 { lanes.add("deaf\(token)", token: UInt64(token), lane: .plugins) }
        var started = 0
        while lanes.next() != nil { started += 1 }
        #expect(started == 64)
        lanes.add("disk", token: 101, lane: .shared)
        #expect(lanes.next()?.reload.instance == "disk")
    }
}
