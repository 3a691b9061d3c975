import Foundation

/// Runs `body` on a thread of its own, so it may block (on a full FIFO) while the test thread reads.
public func onAnotherThread(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
    let group = DispatchGroup()
    let thread = Thread {
        body()
        group.leave()
    }
    group.enter()
    thread.start()
    return group
}
