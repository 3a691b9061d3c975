import Testing

@testable import widgetd

@Suite("reload lanes: each lane of provider threads with its own limit")
struct ReloadLanesTests {
    @Test func lanesHandOutInOrderWithinTheirOwnLimits() throws {
        var lanes = ReloadLanes()
        lanes.add("quote", token: 1, lane: .shared)
        lanes.add("todos", token: 2, lane: .store)
        lanes.add("motivation", token: 3, lane: .store)
        lanes.add("script", token: 4, lane: .commands)
        var handed: [String] = []
        while let (reload, _) = lanes.next() { handed.append(reload.instance) }
        // The store runs one at a time: the second store-backed reload waits for the first.
        #expect(handed == ["quote", "script", "todos"])
        lanes.finished(.shared)
        #expect(lanes.next() == nil, "a shared slot does not start a store reload")
        lanes.finished(.store)
        let taken = lanes.next()
        let next = try #require(taken)
        #expect(next.reload == ReloadQueue.Reload(instance: "motivation", token: 3) && next.lane == .store)
    }
}
