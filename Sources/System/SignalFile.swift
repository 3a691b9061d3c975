public import CLinux
import Glibc

/// Receives signals as data on a descriptor instead of in a handler (`signalfd`).
///
/// SIGHUP (re-read the config), SIGTERM and SIGINT (stop cleanly) become readable events in the daemon's
/// `poll()` loop, where acting on them is ordinary code; a handler could only set a flag. For this to work
/// the signals must be blocked in every thread, or the kernel delivers them to some thread's default action
/// (termination) instead of queueing them: see `blockInThisThread(_:)`.
public final class SignalFile: Sendable {
    private let descriptor: FileDescriptor

    /// The signalfd, for `poll()`.
    public var fileDescriptor: Int32 { descriptor.rawValue }

    /// Blocks `signals` in the calling thread (`pthread_sigmask(SIG_BLOCK, …)`).
    ///
    /// Call it at the very start of `main`, before anything creates a thread (Dispatch, the concurrency pool,
    /// Foundation): a new thread inherits its creator's mask, so blocking in the main thread first is the
    /// only way to have the signals blocked everywhere. A thread that does not block them would take the
    /// signal itself, and for SIGTERM that means the default action: the process dies without cleaning up.
    public static func blockInThisThread(_ signals: [Int32]) throws(SystemError) {
        var set = signalSet(signals)
        // pthread_sigmask returns the error number rather than setting errno.
        let result = pthread_sigmask(SIG_BLOCK, &set, nil)
        guard result == 0 else { throw SystemError(call: "pthread_sigmask", errno: result) }
    }

    /// Unblocks `signals` in the calling thread (`pthread_sigmask(SIG_UNBLOCK, …)`); for tests and for a
    /// child about to `exec`.
    public static func unblockInThisThread(_ signals: [Int32]) throws(SystemError) {
        var set = signalSet(signals)
        let result = pthread_sigmask(SIG_UNBLOCK, &set, nil)
        guard result == 0 else { throw SystemError(call: "pthread_sigmask", errno: result) }
    }

    /// Opens a descriptor that becomes readable when one of `signals` is pending
    /// (`signalfd(-1, …, SFD_NONBLOCK | SFD_CLOEXEC)`).
    ///
    /// The signals must already be blocked (see `blockInThisThread(_:)`); a signalfd does not block them.
    public init(signals: [Int32]) throws(SystemError) {
        var set = Self.signalSet(signals)
        let raw = try systemCall("signalfd") { signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
        descriptor = FileDescriptor(owning: raw)
    }

    /// The signals pending now, in arrival order, each taken off the queue (`read` of `signalfd_siginfo`
    /// records until `EAGAIN`, or until `limit` are read); empty when there are none.
    ///
    /// Standard signals do not queue: a SIGHUP sent twice before this read appears once. Real-time signals do, up to
    /// the user's `RLIMIT_SIGPENDING` (tens of thousands): `limit` keeps one read of a storm short, and the descriptor
    /// stays readable for the rest.
    public func readSignals(limit: Int = .max) -> [Int32] {
        let recordSize = MemoryLayout<signalfd_siginfo>.size
        var signals: [Int32] = []
        while signals.count < limit {
            let bytes: [UInt8]
            do {
                bytes = try descriptor.read(upTo: recordSize * min(64, limit - signals.count))
            } catch {
                precondition(error.errno == EAGAIN, "reading a signalfd cannot fail with \(error)")
                return signals
            }
            if bytes.isEmpty { return signals }
            let signalNumber = MemoryLayout<signalfd_siginfo>.offset(of: \.ssi_signo)!
            bytes.withUnsafeBytes { buffer in
                // The kernel only ever returns whole records.
                for record in stride(from: 0, to: buffer.count - recordSize + 1, by: recordSize) {
                    let number = buffer.loadUnaligned(fromByteOffset: record + signalNumber, as: UInt32.self)
                    signals.append(Int32(bitPattern: number))
                }
            }
        }
        return signals
    }

    /// Which of `signals` are pending (`sigpending`), with every queued instance of each discarded: setting a signal's
    /// action to ignore discards it while pending, blocked or not (POSIX; Linux's `do_sigaction`), and the action is
    /// set back at once.
    ///
    /// Reading a long real-time queue one signal at a time costs the kernel a walk of the whole queue per signal, so a
    /// storm is cleared this way, in one walk.
    public static func discardPending(_ signals: [Int32]) -> [Int32] {
        var pending = sigset_t()
        sigemptyset(&pending)
        guard sigpending(&pending) == 0 else { return [] }
        return signals.filter { signal in
            guard sigismember(&pending, signal) == 1 else { return false }
            let previous = Glibc.signal(signal, SIG_IGN)
            Glibc.signal(signal, previous)
            return true
        }
    }

    /// `SIGRTMIN+offset` (`__libc_current_sigrtmin`; Swift does not import the `SIGRTMIN` macro). glibc keeps the
    /// first two real-time signals for threads, so this is what `pkill -RTMIN+N` sends to this process.
    public static func realTimeSignal(_ offset: Int32) -> Int32 {
        __libc_current_sigrtmin() + offset
    }

    /// The real-time signals a widget's `signal: N` (1–30) may name: `SIGRTMIN+1` … `SIGRTMIN+30`, as i3blocks takes.
    public static var widgetSignals: [Int32] { (1...30).map { realTimeSignal(Int32($0)) } }

    /// A `sigset_t` holding `signals` (`sigemptyset`, `sigaddset`).
    public static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
