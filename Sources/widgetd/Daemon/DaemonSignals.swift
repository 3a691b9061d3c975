import Glibc
import System

/// The signals meant for the daemon, and what the other `widgetd` processes do when they get them.
///
/// Signals are sent by name: `pkill -RTMIN+N widgetd` (i3blocks' way to reload a block, docs/kinds.md) and
/// `pkill -HUP widgetd` reach every process called `widgetd`, the `show --follow` and `bar` processes a bar runs as
/// well as the daemon. The default action of each of these is to end the process, so before this every block on the
/// bar went away when a script asked one widget to reload.
enum DaemonSignals {
    /// What the daemon takes on its signalfd (blocked in every thread before any exists): SIGHUP re-reads the config,
    /// SIGTERM and SIGINT stop it, SIGCHLD reaps the commands clicks start, SIGRTMIN+N reloads the widgets whose
    /// `signal:` is N. SIGUSR1 and SIGUSR2 mean nothing to it: they are logged and ignored, where their default action
    /// would end the daemon without its clean-up.
    static let handled: [Int32] = [SIGHUP, SIGTERM, SIGINT, SIGCHLD, SIGUSR1, SIGUSR2] + SignalFile.widgetSignals

    /// In any other command: the widget signals are ignored, as they are the daemon's. `show --follow` ignores SIGUSR1
    /// and SIGUSR2 too, which the daemon takes and ignores, so that `pkill -USR1 widgetd` does not blank a bar's
    /// widgets (`bar` takes them on its signalfd as i3bar's stop and continue signals). The commands a bar keeps
    /// running (`bar`, `show --follow`) ignore SIGHUP when their output is not a terminal: a bar that goes away closes
    /// their pipes, which ends them; in a terminal, SIGHUP keeps its meaning, the terminal went away.
    ///
    /// Children are not affected: every process widgetd starts gets these signals' default actions back
    /// (`ChildAttributes`).
    static func ignore(in command: Command?) {
        for signal in SignalFile.widgetSignals { Glibc.signal(signal, SIG_IGN) }
        guard keptRunningByABar(command) else { return }
        if case .show? = command {
            for signal in [SIGUSR1, SIGUSR2] { Glibc.signal(signal, SIG_IGN) }
        }
        if isatty(STDOUT_FILENO) == 0 { Glibc.signal(SIGHUP, SIG_IGN) }
    }

    private static func keptRunningByABar(_ command: Command?) -> Bool {
        switch command {
        case .bar?: true
        case .show(_, _, let follow, _)?: follow
        default: false
        }
    }
}
