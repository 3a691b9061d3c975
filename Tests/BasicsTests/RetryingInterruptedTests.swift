import Basics
import Foundation
import Synchronization
import Testing

/// `retryingInterrupted`, the one `EINTR` retry (issue 15): a call a signal interrupts is made again, any other
/// failure comes back at once with its `errno`.
@Suite("the EINTR retry")
struct RetryingInterruptedTests {
    @Test func anInterruptedCallIsMadeAgainUntilItAnswers() {
        var calls = 0
        let result = retryingInterrupted { () -> Int32 in
            calls += 1
            guard calls > 2 else {
                errno = EINTR
                return -1
            }
            return 5
        }
        #expect(result == 5)
        #expect(calls == 3)
    }

    @Test func anyOtherFailureComesBackOnceWithItsErrno() {
        var calls = 0
        let result = retryingInterrupted { () -> Int in
            calls += 1
            errno = EAGAIN
            return -1
        }
        #expect(result == -1)
        #expect(errno == EAGAIN)
        #expect(calls == 1)
    }

    /// A real signal, with a handler installed without `SA_RESTART`, interrupts a `read` of an empty pipe: the read
    /// is made again and returns the bytes written afterwards. The signal goes to the reading thread alone, which
    /// unblocks it, and is one no other test uses.
    @Test func aReadInterruptedByARealSignalReadsOnAfterIt() throws {
        let signal = __libc_current_sigrtmin() + 29
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        #expect(sigaction(signal, &action, nil) == 0)
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let readEnd = ends[0]

        let calls = Atomic<Int>(0)
        let reader = Mutex<pthread_t?>(nil)
        let result = Mutex<(count: Int, text: String)?>(nil)
        try DetachedThread.start(name: "interrupted") {
            // Threads here may start with most signals blocked (the tests' process blocks them for signalfd).
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, signal)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            reader.withLock { $0 = pthread_self() }
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = retryingInterrupted {
                calls.add(1, ordering: .sequentiallyConsistent)
                return read(readEnd, &buffer, buffer.count)
            }
            result.withLock { $0 = (count, String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)) }
        }
        // Signalled until the read has been made a second time, that is until one was interrupted and retried.
        let deadline = Date().addingTimeInterval(10)
        while calls.load(ordering: .sequentiallyConsistent) < 2, Date() < deadline {
            if let thread = reader.withLock({ $0 }) { pthread_kill(thread, signal) }
            usleep(1_000)
        }
        #expect(calls.load(ordering: .sequentiallyConsistent) >= 2, "the read was never interrupted")
        #expect(result.withLock { $0 } == nil, "the read gave up: \(String(describing: result.withLock { $0 }))")
        #expect(write(ends[1], "after", 5) == 5)
        while result.withLock({ $0 }) == nil, Date() < deadline { usleep(1_000) }
        let answer = try #require(result.withLock { $0 })
        #expect(answer.count == 5)
        #expect(answer.text == "after")
    }
}
