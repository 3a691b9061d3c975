import Glibc
import System

/// The signals meant for the daemon, and what the other `widgetd` processes do when they get them (`ignore(in:)`, in
/// the CLI, which knows the commands).
///
/// Signals are sent by name: `pkill -RTMIN+N widgetd` (i3blocks' way to reload a block, docs/kinds.md) and
/// `pkill -HUP widgetd` reach every process called `widgetd`, the `show --follow` and `bar` processes a bar runs as
/// well as the daemon. The default action of each of these is to end the process, so before this every block on the
/// bar went away when a script asked one widget to reload.
public enum DaemonSignals {
    /// What the daemon takes on its signalfd (blocked in every thread before any exists): SIGHUP re-reads the config,
    /// SIGTERM and SIGINT stop it, SIGCHLD reaps the commands clicks start, SIGRTMIN+N reloads the widgets whose
    /// run mode names N (`RunMode.reloadSignal`: exec's `signal:`). SIGUSR1 and SIGUSR2 mean nothing to it: they are
    /// logged and ignored, where their default action would end the daemon without its clean-up.
    public static let handled: [Int32] =
        [SIGHUP, SIGTERM, SIGINT, SIGCHLD, SIGUSR1, SIGUSR2] + SignalFile.widgetSignals
}
