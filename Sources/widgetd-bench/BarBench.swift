import Foundation
import Glibc

/// `widgetd bar` with N widgets, as i3bar runs it: what it and the daemon spend per minute, and how often each wakes.
struct BarResult {
    var count: Int
    var seconds: Double
    /// Status lines printed in the window, and block updates they carried.
    var lines: Int
    var updates: Int
    /// Time on CPU in the window (schedstat), in seconds.
    var barCPU: Double
    var daemonCPU: Double
    /// Context switches in the window: wake-ups.
    var barWakeups: Int
    var daemonWakeups: Int

    var perMinute: Double { 60 / seconds }
}

enum BarBench {
    /// The shown widgets: N per-second clocks (`ticking`, the same clocks i3blocks runs as blocks), or N quotes beside
    /// one per-second clock the bar does not show (`ticking: false`: the bar should not wake at all).
    static func run(count: Int, ticking: Bool, seconds: Double, root: String, widgetd: String) throws -> BarResult {
        let scenario = try Scenario(
            root: root, name: "bar-\(ticking ? "clocks" : "quotes")-\(count)", widgetd: widgetd)
        let shown = (0..<count).map { ticking ? Widgets.secondsClock("b\($0)") : Widgets.quotes("b\($0)") }
        try scenario.writeConfig(shown + (ticking ? [] : [Widgets.secondsClock("beside")]))
        let daemon = try scenario.startDaemon()
        defer { daemon.stop() }
        try scenario.waitForTimelines(count + (ticking ? 0 : 1))
        let names = (0..<count).map { "b\($0)" }.joined(separator: ",")
        let bar = try Child(
            [widgetd, "bar", "--widgets", names, "--config", scenario.config], environment: scenario.environment,
            stdout: .pipe, stderr: scenario.directory + "/bar.log")
        defer { bar.stop() }
        let output = BlockUpdateCounter(descriptor: bar.pipeReadEnd, blocks: count, nameKey: #""instance":"b"#)
        guard waitUntil(timeout: 30, { output.counts.lines > 0 }) else {
            throw BenchError("widgetd bar printed no status line; see \(scenario.directory)/bar.log")
        }
        let start = realtime().rounded(.down) + 2.3
        sleepUntil(realtime: start)
        let counts0 = output.counts
        let cpu0 = (Proc.scheduledSeconds(bar.pid), Proc.scheduledSeconds(daemon.pid))
        let switches0 = (Proc.contextSwitches(bar.pid), Proc.contextSwitches(daemon.pid))
        sleepUntil(realtime: start + seconds)
        let counts1 = output.counts
        let cpu1 = (Proc.scheduledSeconds(bar.pid), Proc.scheduledSeconds(daemon.pid))
        let switches1 = (Proc.contextSwitches(bar.pid), Proc.contextSwitches(daemon.pid))
        guard bar.isRunning, daemon.isRunning else { throw BenchError("the bar or the daemon stopped") }
        return BarResult(
            count: count, seconds: seconds, lines: counts1.lines - counts0.lines,
            updates: counts1.updates - counts0.updates, barCPU: cpu1.0 - cpu0.0, daemonCPU: cpu1.1 - cpu0.1,
            barWakeups: switches1.0 - switches0.0, daemonWakeups: switches1.1 - switches0.1)
    }
}
