import FoundationEssentials

/// At most `perSecond` reads of a command's output in any one-second window; past that, the output waits in its pipe
/// until the window ends. A command that writes flat out without giving the daemon anything to show — a byte at a
/// time, a line with no end, a repeat run that never exits — then blocks on its full pipe, and costs the daemon a few
/// dozen wake-ups a second instead of a core.
struct ReadBudget {
    let perSecond: Int
    private var windowStart = Date.distantPast
    private var spent = 0

    init(perSecond: Int) {
        self.perSecond = perSecond
    }

    /// When reading may go on; nil when it may now.
    func resumes(after now: Date) -> Date? {
        let end = windowStart.addingTimeInterval(1)
        return spent >= perSecond && now < end ? end : nil
    }

    /// One read, made at `now`.
    mutating func spend(now: Date) {
        if now.timeIntervalSince(windowStart) >= 1 {
            windowStart = now
            spent = 0
        }
        spent += 1
    }
}
