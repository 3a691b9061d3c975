import Glibc
import Runtime
import System

extension DaemonSignals {
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
