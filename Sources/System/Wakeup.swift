import Basics
internal import CLinux
import Glibc

/// Wakes a thread blocked in `poll()` from another thread or a signal handler (`eventfd`).
///
/// The daemon's loop sleeps in one `poll()` over all its descriptors; provider calls finish on other
/// threads and hand their results over, then `signal()` so the loop looks. Signals coalesce: however many
/// arrive before the loop calls `drain()`, it wakes once, which is what a "something changed, look" flag
/// needs.
public final class Wakeup: Sendable {
    private let descriptor: FileDescriptor

    /// The eventfd, for `poll()`: readable after `signal()` until `drain()`.
    public var fileDescriptor: Int32 { descriptor.rawValue }

    /// Creates an unsignalled wakeup (`eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)`).
    public init() throws(SystemError) {
        let raw = try systemCall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
        descriptor = FileDescriptor(owning: raw)
    }

    /// Makes the descriptor readable (`write` of 1 to the eventfd's counter).
    ///
    /// Thread-safe and async-signal-safe: one `write` of a value on the stack, no allocation, no lock, no
    /// throwing. It cannot fail in a way worth reporting: `EAGAIN` means the counter is already near 2⁶⁴,
    /// so the descriptor is readable anyway.
    public func signal() {
        var one: UInt64 = 1
        retryingInterrupted { write(descriptor.rawValue, &one, MemoryLayout<UInt64>.size) }
    }

    /// Clears every signal so far (`read` of the eventfd's counter); true if there was any.
    @discardableResult
    public func drain() -> Bool {
        var count: UInt64 = 0
        // EAGAIN: nothing was signalled.
        return retryingInterrupted { read(descriptor.rawValue, &count, MemoryLayout<UInt64>.size) } >= 0 && count > 0
    }
}
