import Foundation

/// Values appended from several threads at once.
final class Collected<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.withLock { storage.append(element) }
    }

    var values: [Element] { lock.withLock { storage } }
}

/// Runs `body(0)` … `body(count - 1)` on `count` threads of their own, released together so they really overlap, and
/// waits for all of them up to `timeout`.
///
/// - Returns: whether every thread finished in time.
func onThreads(
    _ count: Int, timeout: TimeInterval = 120, _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            ready.signal()
            go.wait()
            body(index)
            group.leave()
        }
        thread.start()
    }
    for _ in 0..<count { ready.wait() }
    for _ in 0..<count { go.signal() }
    return group.wait(timeout: .now() + timeout) == .success
}

/// Runs `body` on a thread of its own, so a call that blocks (on SQLite's busy wait) keeps no test-pool thread.
func onItsOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
