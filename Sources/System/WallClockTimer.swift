internal import CLinux
import FoundationEssentials
import Glibc

/// A timer that fires at an absolute wall-clock time and notices when the clock is set (`timerfd_create`).
///
/// The daemon's deadlines are wall-clock instants (DESIGN §3), so this is a `CLOCK_REALTIME` timerfd armed
/// with `TFD_TIMER_ABSTIME`: it fires when the wall clock reaches the date, however the clock got there.
/// `TFD_TIMER_CANCEL_ON_SET` makes a discontinuous change of the clock (`settimeofday`, an NTP step; the
/// kernel treats a resume from suspend the same way) wake the loop too, reported as `.clockChanged`, so
/// every deadline is recomputed at once. A date passed while the machine slept fires once on resume (a
/// repeating timer counts the periods it missed, and the loop arms it again). Poll `fileDescriptor` for
/// readability, then call `consume()`.
public final class WallClockTimer: Sendable {
    /// What a readable timer had to say.
    public enum Event: Equatable, Sendable {
        /// The armed date has been reached.
        case fired
        /// The realtime clock was set: re-evaluate every deadline and `arm` again.
        case clockChanged
        /// Nothing yet: the timer was re-armed or consumed after poll() reported it.
        case nothing
    }

    private let descriptor: FileDescriptor

    /// The timerfd, for `poll()`.
    public var fileDescriptor: Int32 { descriptor.rawValue }

    /// Creates a disarmed timer (`timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC)`).
    public init() throws(SystemError) {
        let raw = try systemCall("timerfd_create") {
            timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        }
        descriptor = FileDescriptor(owning: raw)
    }

    /// Arms the timer to fire at `date`, or disarms it when `date` is nil (`timerfd_settime`); with `period`, it then
    /// fires again every `period` seconds after `date`, which saves re-arming it when the next deadline is one period
    /// on (a per-second clock's).
    ///
    /// A date in the past fires at once. Disarmed, the timer never fires and the daemon sleeps until
    /// something else happens; the clock-change flag is passed either way, so on Linux a clock step still
    /// wakes a disarmed timer with `.clockChanged` (harmless: the loop re-evaluates and finds nothing due).
    /// Arming again replaces the previous date and clears anything not yet consumed.
    public func arm(at date: Date?, every period: TimeInterval? = nil) throws(SystemError) {
        var setting = itimerspec()  // zero interval: one-shot; zero value: disarmed
        if let date {
            setting.it_value = Self.timespec(for: date)
            if let period, period > 0 { setting.it_interval = Self.timespec(for: Date(timeIntervalSince1970: period)) }
        }
        let flags = Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)
        try systemCall("timerfd_settime") { timerfd_settime(fileDescriptor, flags, &setting, nil) }
    }

    /// Reads the timer (`read` of its 8-byte expiration count) and says why it was readable.
    ///
    /// `read` failing with `ECANCELED` is how the kernel reports that the realtime clock was set while the
    /// timer was armed with `TFD_TIMER_CANCEL_ON_SET`; the timer must then be re-armed.
    public func consume() -> Event {
        consumeCounting().event
    }

    /// `consume()`, with how many times the timer fired since it was last read: more than once when a repeating
    /// timer's periods passed unread; 0 unless `.fired`.
    public func consumeCounting() -> (event: Event, expirations: UInt64) {
        var expirations: UInt64 = 0
        do {
            try systemCall("read") { read(fileDescriptor, &expirations, MemoryLayout<UInt64>.size) }
            return (.fired, expirations)
        } catch {
            switch error.errno {
            case ECANCELED: return (.clockChanged, 0)
            case EAGAIN: return (.nothing, 0)
            default: preconditionFailure("reading a timerfd cannot fail with \(error)")
            }
        }
    }

    /// `date` as a `timespec` since the epoch, never all zero: an all-zero `it_value` would disarm.
    static func timespec(for date: Date) -> timespec {
        let interval = date.timeIntervalSince1970
        guard interval > 0 else { return Glibc.timespec(tv_sec: 0, tv_nsec: 1) }
        let seconds = interval.rounded(.down)
        guard seconds < Double(Int.max) else { return Glibc.timespec(tv_sec: .max, tv_nsec: 0) }
        // Round the fraction up so the timer never fires before the date the caller asked for.
        var nanoseconds = Int(((interval - seconds) * 1e9).rounded(.up))
        var wholeSeconds = Int(seconds)
        if nanoseconds >= 1_000_000_000 {
            wholeSeconds += 1
            nanoseconds -= 1_000_000_000
        }
        return Glibc.timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
    }
}
