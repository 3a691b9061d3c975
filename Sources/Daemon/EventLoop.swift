import FoundationEssentials
import Glibc
import System

/// What the daemon sleeps on: one `poll()` over a wall-clock timerfd armed for the next deadline, the wake-up that
/// provider threads signal, the control FIFO, inotify and a signalfd. Nothing here runs on a period: with no deadline
/// and nothing to read, `wait` sleeps until something happens.
///
/// It owns the descriptors and reads what woke it (`Wake`); what to do about it is the daemon's (`Daemon.run`). The
/// time comes from a `DaemonClock`: with one set by hand, a deadline that clock has passed wakes the loop at once.
final class EventLoop {
    /// What woke the loop, read from its descriptors, for the daemon to handle in this order.
    struct Wake {
        /// The clock's time when the loop woke.
        var now: Date
        /// The deadline passed (the timer fired, or the clock is past it).
        var deadline = false
        /// The wall clock was set (or the machine resumed): every deadline must be looked at again.
        var clockChanged = false
        /// Provider threads posted results (`CompletionQueue`).
        var completions = false
        /// The control FIFO has something to read.
        var controlLines = false
        var fileEvents: [Inotify.Event] = []
        var signals: [Int32] = []
        /// Which of the other descriptors given to `wait` are readable (or hung up).
        var others: Poller.Ready?

        /// Nothing woke the loop (a test's timeout passed).
        var isEmpty: Bool {
            !deadline && !clockChanged && !completions && !controlLines && fileEvents.isEmpty && signals.isEmpty
                && others == nil
        }
    }

    let clock: any DaemonClock
    let timer: WallClockTimer
    /// What the timer was last armed for (`.some(nil)`: disarmed), while it has not fired or been cancelled since; nil
    /// when unknown. A wake-up that is not the timer's (a FIFO line, a provider's result) leaves the deadline as it was,
    /// and arming the timer again for it would be a system call for nothing.
    private var armed: Date??
    /// The period the timer repeats at after `armed`, if it was armed to repeat.
    private var period: TimeInterval?
    /// The deadline the timer last fired for, when it fired on time; the next deadline's distance from it is the
    /// period the timer is armed to repeat at.
    private var lastFired: Date?
    let watcher: Inotify
    let signals: SignalFile
    /// The most signals one wake-up reads (`Daemon.signalsPerWake`).
    let signalLimit: Int
    let wakeup: Wakeup

    /// Makes the descriptors; `signals` must already be blocked in this thread, so the signalfd sees them.
    init(signals: [Int32], signalLimit: Int = .max, clock: any DaemonClock = SystemClock()) throws(SystemError) {
        self.clock = clock
        self.signalLimit = signalLimit
        timer = try WallClockTimer()
        watcher = try Inotify()
        self.signals = try SignalFile(signals: signals)
        wakeup = try Wakeup()
    }

    var now: Date { clock.now }

    /// Sleeps until `deadline` (nil: none), until `control` (the FIFO's descriptor, when there is one) or one of
    /// `others` (the updates socket and its connections) is readable, or until a file event, a signal or a provider
    /// result arrives. `timeout`: `.zero` when results already wait (`CompletionQueue.loopMaySleep`); in tests, so that
    /// a missing event fails instead of hanging. The timer is armed again only when the deadline is not the one it
    /// already waits for.
    func wait(
        until deadline: Date?, control: Int32?, others: [Int32] = [], timeout: Duration? = nil
    ) throws(SystemError) -> Wake {
        if armed != .some(deadline) {
            armed = nil
            let period = Self.period(from: lastFired, to: deadline)
            try timer.arm(at: deadline, every: period)
            armed = .some(deadline)
            self.period = period
        }
        let passed = deadline.map { $0 <= clock.now } ?? false
        let fifoDescriptor = control ?? -1  // -1: poll skips it
        let own = [
            timer.fileDescriptor, wakeup.fileDescriptor, fifoDescriptor, watcher.fileDescriptor, signals.fileDescriptor,
        ]
        let ready = try Poller.readable(others.isEmpty ? own : own + others, timeout: passed ? .zero : timeout)
        var wake = Wake(now: clock.now, deadline: passed)
        if ready.contains(timer.fileDescriptor) {
            let (event, expirations) = timer.consumeCounting()
            switch event {
            case .fired:
                wake.deadline = true
                // Fired once: a repeating timer is already armed one period on. Late by a period or more, it is
                // armed again.
                if expirations == 1, let period, case .some(.some(let fired)) = armed {
                    armed = .some(fired.addingTimeInterval(period))
                    lastFired = fired
                } else {
                    lastFired = expirations == 1 ? armed ?? nil : nil
                    armed = nil
                }
            case .clockChanged:
                wake.clockChanged = true
                armed = nil
                lastFired = nil
            case .nothing: break
            }
        }
        if ready.contains(wakeup.fileDescriptor) {
            _ = wakeup.drain()
            wake.completions = true
        }
        wake.controlLines = fifoDescriptor >= 0 && ready.contains(fifoDescriptor)
        if ready.contains(watcher.fileDescriptor) { wake.fileEvents = watcher.readEvents() }
        if ready.contains(signals.fileDescriptor) { wake.signals = signals.readSignals(limit: signalLimit) }
        if others.contains(where: { ready.contains($0) }) { wake.others = ready }
        return wake
    }

    /// The period to arm the timer to repeat at for `deadline`: its distance from the deadline it last fired for (one
    /// second for per-second clocks, a minute for per-minute ones), when that is up to an hour. Every wait compares
    /// the deadline it is given with the one the timer is armed for and arms it anew when they differ, so a repeat
    /// never wakes the loop for a deadline it no longer has.
    static func period(from lastFired: Date?, to deadline: Date?) -> TimeInterval? {
        guard let lastFired, let deadline else { return nil }
        let distance = deadline.timeIntervalSince(lastFired)
        return distance > 0 && distance <= 3600 ? distance : nil
    }
}
