import Glibc

/// Waits until at least one of a set of descriptors is readable (`poll`).
///
/// The daemon's loop is one `poll()` over its timer, signalfd, inotify, control FIFO and wakeup
/// descriptors, with no timeout: every deadline is on the timer, so the loop never wakes on a period.
/// Tests pass a timeout so a missing event fails instead of hanging.
public enum Poller {
    /// The descriptors among `descriptors` that are readable, waiting up to `timeout` for one to be
    /// (`poll` with `POLLIN`); empty when the timeout passes first. A nil timeout waits for ever.
    ///
    /// A descriptor whose other end hung up or failed (`POLLHUP`, `POLLERR`) counts as readable: a `read`
    /// is how its owner finds out (end of file or the error), and leaving it out would hide it. A number
    /// that is not an open descriptor (`POLLNVAL`) is a bug in the caller and throws `EBADF`.
    /// A timeout is rounded up to whole milliseconds so a wait never ends early and then spins at zero;
    /// an interrupted wait resumes with what remains of it. At most 64 descriptors.
    ///
    /// The daemon's loop calls this on every wake-up: the `pollfd`s live on the stack and the answer is a bit per
    /// descriptor, where a `Set` and an array were allocated, hashed and freed each time.
    ///
    /// The deadline is kept in nanoseconds of `CLOCK_MONOTONIC`, not as a `ContinuousClock.Instant`: the daemon waits
    /// with no timeout, and making and destroying an optional instant went through its type's metadata at every wake-up.
    public static func readable(_ descriptors: [Int32], timeout: Duration?) throws(SystemError) -> Ready {
        precondition(descriptors.count <= 64, "poll over more than 64 descriptors")
        let deadline = timeout.map { monotonicNanoseconds() + nanoseconds(in: max($0, .zero)) }
        let outcome: Result<UInt64, SystemError> = withUnsafeTemporaryAllocation(
            of: pollfd.self, capacity: descriptors.count
        ) { entries in
            for (index, descriptor) in descriptors.enumerated() {
                entries[index] = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            }
            do throws(SystemError) {
                try systemCall("poll") {
                    let milliseconds =
                        deadline.map { Self.milliseconds(.nanoseconds($0 &- monotonicNanoseconds())) } ?? -1
                    return poll(entries.baseAddress, nfds_t(entries.count), milliseconds)
                }
            } catch {
                return .failure(error)
            }
            var mask: UInt64 = 0
            for (index, entry) in entries.enumerated() where entry.revents != 0 {
                if Int32(entry.revents) & Int32(POLLNVAL) != 0 {
                    return .failure(SystemError(call: "poll", subject: "descriptor \(entry.fd)", errno: EBADF))
                }
                mask |= 1 << UInt64(index)
            }
            return .success(mask)
        }
        return Ready(descriptors: descriptors, mask: try outcome.get())
    }

    /// Which of the descriptors given to `readable` are readable: one bit per position.
    public struct Ready: Sendable {
        let descriptors: [Int32]
        let mask: UInt64

        public var isEmpty: Bool { mask == 0 }

        /// The readable descriptors, as a set (for tests and logs; the loop asks `contains`).
        public var all: Set<Int32> {
            Set(descriptors.indices.filter { mask & (1 << UInt64($0)) != 0 }.map { descriptors[$0] })
        }

        public func contains(_ descriptor: Int32) -> Bool {
            for (index, candidate) in descriptors.enumerated() where candidate == descriptor {
                if mask & (1 << UInt64(index)) != 0 { return true }
            }
            return false
        }
    }

    /// Whether `descriptor` becomes readable within `timeout`; for waits on a single descriptor.
    public static func waitUntilReadable(_ descriptor: Int32, timeout: Duration?) throws(SystemError) -> Bool {
        try !readable([descriptor], timeout: timeout).isEmpty
    }

    /// Now on `CLOCK_MONOTONIC` (the clock `poll` counts its timeout on), in nanoseconds.
    private static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
    }

    /// `duration` in nanoseconds, rounded up, at most `Int64.max / 2` (146 years), so adding it to now cannot overflow.
    private static func nanoseconds(in duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64.max / 2 / 1_000_000_000 else { return Int64.max / 2 }
        return seconds * 1_000_000_000 + (attoseconds + 999_999_999) / 1_000_000_000
    }

    /// `left` as a `poll` timeout: whole milliseconds, rounded up, zero if negative, at most `Int32.max`.
    public static func milliseconds(_ left: Duration) -> Int32 {
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let wholeMilliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !wholeMilliseconds.overflow else { return .max }
        let rounded = wholeMilliseconds.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: rounded)
    }
}
