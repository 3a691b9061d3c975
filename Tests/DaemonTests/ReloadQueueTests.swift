import Testing

@testable import Daemon

@Suite("reload queue")
struct ReloadQueueTests {
    @Test func handsOutAtMostItsLimitInOrderAndMoreAsSlotsFree() {
        var queue = ReloadQueue(limit: 2)
        for index in 0..<5 { queue.add("w\(index)", token: UInt64(index)) }
        #expect(queue.next()?.instance == "w0")
        #expect(queue.next()?.instance == "w1")
        #expect(queue.next() == nil)
        #expect(queue.running == 2)
        queue.finished()
        #expect(queue.next() == ReloadQueue.Reload(instance: "w2", token: 2))
        #expect(queue.next() == nil)
        queue.finished()
        queue.finished()
        #expect(queue.next()?.instance == "w3")
        #expect(queue.next()?.instance == "w4")
        #expect(queue.next() == nil)
        #expect(queue.waitingCount == 0)
    }

    @Test func aLongBurstStaysInOrderAcrossCompaction() {
        var queue = ReloadQueue(limit: 3)
        for index in 0..<5000 { queue.add("w\(index)", token: UInt64(index)) }
        var seen: [UInt64] = []
        while let reload = queue.next() {
            seen.append(reload.token)
            queue.finished()
            if seen.count == 2500 { queue.add("late", token: 9999) }
        }
        #expect(seen == Array(0..<5000) + [9999])
        #expect(queue.running == 0)
    }
}
