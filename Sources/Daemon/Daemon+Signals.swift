import FoundationEssentials
import Glibc
import System

/// Signals taken from the signalfd (`DaemonSignals.handled`), a batch at a time.
///
/// Anyone of the same user can send a storm (a script's `pkill -RTMIN+1` in a loop; real-time signals queue by the
/// tens of thousands), and the loop must keep its clocks on time through it: a wake-up reads at most
/// `signalsPerWake`; when more wait, the rest of those that only ask for work (`coalescable`) are taken all at once
/// (`SignalFile.discardPending`), since draining a long queue one by one costs the kernel a walk of the queue per
/// signal. Each signal in a batch is acted on once (one re-read for any number of SIGHUPs, one reload request per
/// reload signal's number), re-reads are at least `HangupRereads.spacing` apart, and the log says how many came,
/// under the rate limit of the source "signals". SIGTERM, SIGINT and SIGCHLD are never discarded: standard signals do
/// not queue.
extension Daemon {
    /// How many signals one wake-up reads one by one.
    static let signalsPerWake = 64
    /// The signals whose repeats mean nothing more than one: a storm of them is taken at once.
    static var coalescable: [Int32] { [SIGHUP, SIGUSR1, SIGUSR2] + SignalFile.widgetSignals }
    static let signalSource = "signals"

    func handleSignals(_ signals: [Int32]) {
        var counts: [Int32: Int] = [:]
        var order: [Int32] = []
        for signal in signals {
            if counts[signal] == nil { order.append(signal) }
            counts[signal, default: 0] += 1
        }
        // A full batch: a storm may be queued behind it.
        var discarded: Set<Int32> = []
        if signals.count >= Self.signalsPerWake {
            for signal in SignalFile.discardPending(Self.coalescable) {
                discarded.insert(signal)
                if counts[signal] == nil { order.append(signal) }
            }
        }
        let now = clock.now
        for signal in order {
            let count = counts[signal, default: 0]
            let times =
                discarded.contains(signal) ? " (×\(max(count, 1)) and more)" : count > 1 ? " (×\(count))" : ""
            switch signal {
            case SIGHUP:
                log(.info, from: Self.signalSource, "SIGHUP\(times): re-reading \(configPath)")
                hangupRereads.taken(now: now)
            case SIGCHLD:
                reapChildren()
            case _ where SignalFile.widgetSignals.contains(signal):
                reloadSignalled(Int(signal - SignalFile.realTimeSignal(0)), times: times)
            case SIGUSR1, SIGUSR2:
                // Taken only so that a stray one (`pkill -USR1 widgetd` meant for a bar) does not end the daemon.
                log(
                    .info, from: Self.signalSource,
                    "SIGUSR\(signal == SIGUSR1 ? 1 : 2)\(times): widgetd uses neither SIGUSR1 nor SIGUSR2; ignored")
            default:
                log(.info, "signal \(signal): stopping")
                stopping = true
            }
        }
        rereadForHangupWhenDue(now: now)
    }

    /// Re-reads the config for the SIGHUPs taken, once their spacing allows.
    func rereadForHangupWhenDue(now: Date) {
        guard hangupRereads.takeDue(now: now) else { return }
        // Also the way to bring back a FIFO or lock whose loss inotify could not report.
        repairRuntime()
        watchConfigDirectory()
        reloadConfiguration()
    }

    /// `SIGRTMIN+number` arrived: reload the widgets whose run mode names it (`RunMode.reloadSignal`, which each kind
    /// derives from its own keys).
    private func reloadSignalled(_ number: Int, times: String) {
        let names = engine.instanceNames.filter { engine.instance(named: $0)?.runMode.reloadSignal == number }
        log(
            .info, from: Self.signalSource,
            "signal RTMIN+\(number)\(times): reloading \(names.isEmpty ? "nothing" : names.joined(separator: ", "))")
        let now = clock.now
        for name in names { engine.request(.instance(name), now: now) }
    }
}
