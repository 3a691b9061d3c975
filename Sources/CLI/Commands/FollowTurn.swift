import FoundationEssentials
import Runtime
import System

/// How a command that writes for a bar as long as it runs (`show --follow`, `bar`) ends one turn's wait.
enum FollowTurn {
    /// The descriptors that are readable; the timer's expiry, if among them, already consumed.
    case ready(Set<Int32>)
    /// Stop with this exit status: success once the reader or the parent has gone, failure (said on the console)
    /// when the timer or the wait failed.
    case exit(Int32)

    /// Arms `timer` for `deadline` (nil: no wake but the descriptors) and waits for any of `readable` or the end of
    /// `lifetime`.
    static func wait(
        until deadline: Date?, timer: inout Timer, forReadable readable: [Int32], lifetime: ReaderLifetime,
        console: Console
    ) -> FollowTurn {
        let ready: Set<Int32>
        do {
            try timer.arm(at: deadline)
            guard let readable = try lifetime.wait(forReadable: [timer.fileDescriptor] + readable) else {
                return .exit(ExitCode.success)
            }
            ready = readable
        } catch {
            console.err("widgetd: error: \(error)")
            return .exit(ExitCode.failure)
        }
        if ready.contains(timer.fileDescriptor) { timer.consume() }
        return .ready(ready)
    }

    /// A follower's wall-clock timer, armed again only when its deadline changes: most turns wake for a new record or
    /// line and keep the deadline they had, and arming it anyway is a system call for nothing.
    struct Timer {
        private let timer: WallClockTimer
        /// The deadline the timer is armed for (nil: disarmed), while `armedIsCurrent`.
        private var armed: Date?
        /// False once the timer has fired or seen the clock set (and at first): the next deadline is armed even if it
        /// is the same, as `WallClockTimer` asks after `.clockChanged`.
        private var armedIsCurrent = false

        init() throws(SystemError) {
            timer = try WallClockTimer()
        }

        var fileDescriptor: Int32 { timer.fileDescriptor }

        mutating func arm(at deadline: Date?) throws(SystemError) {
            guard !armedIsCurrent || deadline != armed else { return }
            try timer.arm(at: deadline)
            armed = deadline
            armedIsCurrent = true
        }

        mutating func consume() {
            _ = timer.consume()
            armedIsCurrent = false
        }
    }

    /// The status to exit with: `exit`'s, or success for `ready` (which does not end the command).
    var exitCode: Int32 {
        guard case .exit(let code) = self else { return ExitCode.success }
        return code
    }
}
