import Control
import FoundationEssentials
import Glibc
import Kind

/// The commands clicks started (`on_click:` argv, detached) until they are reaped, and the answer a waiting click
/// (`click --wait`) gets about its command.
///
/// A started process is not yet a command that ran: a program missing behind the session wrapper (`sh` exits 127), or
/// one that needs a display the daemon lacks (`x-terminal-emulator` with no `DISPLAY`), exits at once with an error.
/// So a waiting click is answered when its command exits, or once it has run `grace` without exiting: done then, or on
/// a zero exit; failed, naming the program and its status, on any other. A click nobody waits on is never held up; a
/// failure is logged all the same.
struct ClickCommands {
    /// A command a click started.
    struct Started {
        var instance: String
        var button: MouseButton
        var program: String
        /// The waiting click's token; nil once answered, or when nobody waits.
        var token: ControlCommand.AckToken?
        var started: Date
    }

    /// How long a command must run before its click counts as done: a program that cannot open its display or
    /// find what it runs fails well within it.
    static let grace: TimeInterval = 1

    private var running: [pid_t: Started] = [:]

    var count: Int { running.count }

    mutating func add(_ pid: pid_t, _ started: Started) {
        running[pid] = started
    }

    /// When the first waiting click is to be answered without its command having exited.
    var nextAnswer: Date? {
        running.values.lazy.filter { $0.token != nil }.map { $0.started.addingTimeInterval(Self.grace) }.min()
    }

    /// Collects each finished command's exit status (`waitpid`, never blocking); returns them.
    mutating func reap() -> [(started: Started, status: Int32)] {
        var finished: [(Started, Int32)] = []
        for (pid, started) in running {
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { continue }
            running[pid] = nil
            finished.append((started, status))
        }
        return finished
    }

    /// The waiting clicks whose commands have run `grace` at `now`: answered as done, so their tokens are taken.
    mutating func takeDueAnswers(now: Date) -> [Started] {
        var due: [Started] = []
        for (pid, started) in running
        where started.token != nil && started.started.addingTimeInterval(Self.grace) <= now {
            due.append(started)
            running[pid]?.token = nil
        }
        return due
    }

    /// Why a command that ended with wait status `status` failed, or nil when it exited 0. `hasDisplay`: whether the
    /// daemon's environment names a display, for the likeliest cause of a graphical program's failure.
    static func failure(of started: Started, status: Int32, hasDisplay: Bool) -> String? {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let signal = status & 0x7f
        let code = (status >> 8) & 0xff
        guard signal != 0 || code != 0 else { return nil }
        let what: String
        if signal != 0 {
            what = "was killed by signal \(signal)"
        } else if code == 127 {
            what = "was not found (exit status 127)"
        } else if code == 126 {
            what = "could not be run (exit status 126)"
        } else {
            what = "exited with status \(code)"
        }
        let display = hasDisplay ? "" : "; the daemon has no display (DISPLAY and WAYLAND_DISPLAY are unset)"
        return "\(started.instance): \(started.button.rawValue) click: \(started.program) \(what)\(display)"
    }
}
