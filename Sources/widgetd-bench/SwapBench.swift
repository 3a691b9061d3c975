import Foundation
import Glibc

/// N per-second clocks for a fixed window: what the daemon spends per entry swap, how late the files land, and
/// what it writes.
struct SwapResult {
    var count: Int
    var seconds: Double
    /// `<name>.plain` renames seen in the window: one per entry swap.
    var swaps: Int
    /// All renames seen in the window (bar files, and records when timelines arrive).
    var renames: Int
    /// utime + stime from /proc/PID/stat, in seconds (10 ms ticks).
    var cpuTicks: Double
    /// Time on CPU from /proc/PID/task/*/schedstat, in seconds (exact).
    var cpuScheduled: Double
    /// Per entry: its second boundary → its `.plain` renamed.
    var lateness: Summary
    /// Per second: the boundary → the first file of that second renamed (the wake-up).
    var first: Summary
    /// Per second: the boundary → the last file of that second renamed (the whole burst).
    var burst: Summary
    var wchar: Int
    var writeBytes: Int
    /// The size of one instance's bar file (`c0.plain`).
    var fileBytes: Int
    var peakKilobytes: Int
    var descriptors: Int
    var threads: Int
    /// Pages of code and data touched in one wake after the window (`Proc.pagesTouchedInOneWake`); nil when unknown.
    var pagesPerWake: Int?

    var cpuPerThousand: Double { swaps > 0 ? cpuScheduled / Double(swaps) * 1000 : .nan }
    var ticksPerThousand: Double { swaps > 0 ? cpuTicks / Double(swaps) * 1000 : .nan }
}

enum SwapBench {
    /// `settle`: seconds from the next whole second to the window's start. `formats`: the clocks' `output:` list
    /// (nil: the default, plain alone), for the renderer's figure. `countPages`: count the pages the daemon touches
    /// in a wake after the window (two seconds more).
    static func run(
        count: Int, seconds: Double, settle: Double = 2.3, root: String, name: String? = nil, widgetd: String,
        formats: [String]? = nil, countPages: Bool = false
    ) throws -> SwapResult {
        let scenario = try Scenario(root: root, name: name ?? "swap-\(count)", widgetd: widgetd)
        try scenario.writeConfig((0..<count).map { Widgets.secondsClock("c\($0)", formats: formats) })
        let watcher = try RenameWatcher([scenario.output])
        defer { watcher.stop() }
        let daemon = try scenario.startDaemon()
        defer { daemon.stop() }
        try scenario.waitForTimelines(count)

        // Start 0.3 s after a second boundary, a second or two on, so the start-up's writes are over and every
        // window boundary falls between bursts.
        let start = realtime().rounded(.down) + settle
        sleepUntil(realtime: start)
        guard daemon.isRunning else { throw BenchError("the daemon stopped: \(scenario.logTail)") }
        let ticks0 = Proc.stat(daemon.pid)?.own ?? 0
        let scheduled0 = Proc.scheduledSeconds(daemon.pid)
        let io0 = Proc.io(daemon.pid) ?? (0, 0)
        let from = watcher.count
        let end = start + seconds
        sleepUntil(realtime: end)
        let ticks1 = Proc.stat(daemon.pid)?.own ?? 0
        let scheduled1 = Proc.scheduledSeconds(daemon.pid)
        let io1 = Proc.io(daemon.pid) ?? (0, 0)
        let peak = Proc.statusKilobytes(daemon.pid, "VmHWM") ?? 0
        let descriptors = Proc.descriptors(daemon.pid)
        let threads = Proc.threads(daemon.pid)
        let pages = countPages ? Proc.pagesTouchedInOneWake(daemon.pid) : nil
        guard daemon.isRunning else { throw BenchError("the daemon stopped: \(scenario.logTail)") }

        let events = watcher.snapshot(from: from).filter { $0.time > start && $0.time <= end }
        if watcher.overflowed { print("   warning: the inotify queue overflowed; counts are low") }
        var lateness: [Double] = []
        var bySecond: [Double: (first: Double, last: Double)] = [:]
        for event in events {
            let boundary = event.time.rounded(.down)
            let late = event.time - boundary
            let seen = bySecond[boundary]
            bySecond[boundary] = (min(seen?.first ?? late, late), max(seen?.last ?? late, late))
            if event.name.hasSuffix(formats == nil ? ".plain" : "") { lateness.append(late) }
        }
        var fileBytes = 0
        for suffix in ["plain"] {
            var info = stat()
            if stat(scenario.output + "/c0." + suffix, &info) == 0 { fileBytes += Int(info.st_size) }
        }
        return SwapResult(
            count: count, seconds: seconds, swaps: lateness.count, renames: events.count,
            cpuTicks: Double(ticks1 - ticks0) / Proc.ticksPerSecond, cpuScheduled: scheduled1 - scheduled0,
            lateness: Summary(lateness), first: Summary(bySecond.values.map(\.first)),
            burst: Summary(bySecond.values.map(\.last)), wchar: io1.wchar - io0.wchar,
            writeBytes: io1.writeBytes - io0.writeBytes, fileBytes: fileBytes, peakKilobytes: peak,
            descriptors: descriptors, threads: threads, pagesPerWake: pages)
    }
}

/// The same N widgets as i3blocks blocks, run headless with the bar's output counted and thrown away.
struct I3blocksResult {
    enum Variant: String, CaseIterable {
        /// `interval=1`, `command=date +%T`: a shell and `date` forked per update.
        case command
        /// `interval=persist` with a shell loop: `date` and `sleep` forked per update.
        case persistShell = "persist-sh"
        /// `interval=persist` with a compiled loop that forks nothing: i3blocks at its cheapest.
        case persistC = "persist-c"
    }

    var count: Int
    var variant: Variant
    var seconds: Double
    /// Block updates delivered in the window: blocks whose text changed from one status line to the next.
    var updates: Int
    /// Status lines (JSON arrays) printed in the window; one line may carry many updates.
    var lines: Int
    /// i3blocks' own utime + stime, in seconds.
    var ownCPU: Double
    /// Its children's: reaped (cutime + cstime) plus live ones with theirs, in seconds.
    var childrenCPU: Double
    var peakKilobytes: Int
    /// The persist loops' resident memory, summed, in kB.
    var childrenKilobytes: Int
    /// i3blocks' own context switches in the window: its wake-ups.
    var wakeups = 0

    var cpu: Double { ownCPU + childrenCPU }
    var cpuPerThousand: Double { updates > 0 ? cpu / Double(updates) * 1000 : .nan }
}

enum I3blocksBench {
    /// The fork-free persist program, built with `cc` when there is one.
    static let tickerSource = """
        #include <stdio.h>
        #include <time.h>
        int main(void) {
            for (;;) {
                struct timespec now;
                clock_gettime(CLOCK_REALTIME, &now);
                struct tm fields;
                localtime_r(&now.tv_sec, &fields);
                char text[16];
                strftime(text, sizeof text, "%T", &fields);
                puts(text);
                fflush(stdout);
                struct timespec next = { now.tv_sec + 1, 0 };
                clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &next, NULL);
            }
        }
        """

    /// Compiles the ticker into `root`; nil when there is no C compiler.
    static func buildTicker(root: String) -> String? {
        let source = root + "/ticker.c"
        let binary = root + "/ticker"
        guard (try? tickerSource.write(toFile: source, atomically: true, encoding: .utf8)) != nil else { return nil }
        let environment = ProcessInfo.processInfo.environment
        guard let result = try? Child.run(["cc", "-O2", "-o", binary, source], environment: environment),
            result.status == 0
        else { return nil }
        return binary
    }

    static func run(
        count: Int, variant: I3blocksResult.Variant, seconds: Double, settle: Double = 2.3, root: String,
        ticker: String?
    ) throws -> I3blocksResult {
        let directory = root + "/i3blocks-\(variant.rawValue)-\(count)"
        try makeDirectory(directory)
        let config = directory + "/i3blocks.conf"
        let block: String
        switch variant {
        case .command: block = "command=date +%T\ninterval=1\n"
        case .persistShell: block = "command=while :; do date +%T; sleep 1; done\ninterval=persist\n"
        case .persistC:
            guard let ticker else { throw BenchError("no C compiler for the persist-c program") }
            block = "command=exec \(ticker)\ninterval=persist\n"
        }
        try (0..<count).map { "[b\($0)]\n\(block)\n" }.joined().write(toFile: config, atomically: true, encoding: .utf8)

        let (i3blocks, output) = try startI3blocks(config: config, in: directory, blocks: count)
        defer { i3blocks.stop() }
        if variant != .command {
            // Every loop started (and not just forked), then a second for them to settle.
            waitUntil(timeout: 30, interval: 0.1) { Proc.children(of: i3blocks.pid).count >= count }
        }
        let start = realtime().rounded(.down) + settle
        sleepUntil(realtime: start)
        guard i3blocks.isRunning else { throw BenchError("i3blocks stopped; see \(directory)/i3blocks.log") }
        let counts0 = output.counts
        let cpu0 = Proc.treeCPU(i3blocks.pid)
        let switches0 = Proc.contextSwitches(i3blocks.pid)
        sleepUntil(realtime: start + seconds)
        let counts1 = output.counts
        let cpu1 = Proc.treeCPU(i3blocks.pid)
        let switches1 = Proc.contextSwitches(i3blocks.pid)
        let peak = Proc.statusKilobytes(i3blocks.pid, "VmHWM") ?? 0
        let childrenRSS = variant == .command ? 0 : Proc.childrenRSS(of: i3blocks.pid)
        var result = I3blocksResult(
            count: count, variant: variant, seconds: seconds, updates: counts1.updates - counts0.updates,
            lines: counts1.lines - counts0.lines, ownCPU: cpu1.own - cpu0.own,
            childrenCPU: cpu1.children - cpu0.children,
            peakKilobytes: peak,
            childrenKilobytes: childrenRSS)
        result.wakeups = switches1 - switches0
        return result
    }
}

/// N `exec` widgets whose JSON timelines put their entries 1/N s apart, so no two are due at once: the lateness
/// of an entry that has the daemon to itself, with N instances loaded.
struct StaggeredResult {
    var count: Int
    var seconds: Double
    var swaps: Int
    var lateness: Summary
    var cpuScheduled: Double
    var cpuPerThousand: Double { swaps > 0 ? cpuScheduled / Double(swaps) * 1000 : .nan }
}

enum StaggeredBench {
    static func run(count: Int, seconds: Double, root: String, widgetd: String) throws -> StaggeredResult {
        let scenario = try Scenario(root: root, name: "staggered-\(count)", widgetd: widgetd)
        let timelines = scenario.directory + "/timelines"
        try makeDirectory(timelines)
        // The entries start once every `cat` has run and the start-up writes are over.
        let start = realtime().rounded(.down) + 6 + Double(count) / 500
        let spacing = 1 / Double(count)
        var widgets: [String] = []
        for index in 0..<count {
            var entries = [#"{"date":\#(start - 100),"text":"e\#(index) -"}"#]
            for second in 0..<Int(seconds) {
                let date = start + Double(second) + Double(index) * spacing
                entries.append(#"{"date":\#(date),"text":"e\#(index) \#(second)"}"#)
            }
            let path = timelines + "/e\(index).json"
            try (#"{"entries":["# + entries.joined(separator: ",") + #"],"policy":"never"}"#)
                .write(toFile: path, atomically: false, encoding: .utf8)
            widgets.append("  e\(index):\n    kind: exec\n    command: [cat, \"\(path)\"]\n")
        }
        try scenario.writeConfig(widgets)
        let watcher = try RenameWatcher([scenario.output])
        defer { watcher.stop() }
        let daemon = try scenario.startDaemon()
        defer { daemon.stop() }
        try scenario.waitForTimelines(count, timeout: start - realtime() - 0.5)
        sleepUntil(realtime: start - 0.2)
        let from = watcher.count
        let cpu0 = Proc.scheduledSeconds(daemon.pid)
        sleepUntil(realtime: start + seconds)
        let cpu1 = Proc.scheduledSeconds(daemon.pid)
        guard daemon.isRunning else { throw BenchError("the daemon stopped: \(scenario.logTail)") }
        var lateness: [Double] = []
        for event in watcher.snapshot(from: from) where event.name.hasSuffix(".plain") {
            guard let index = Int(event.name.dropFirst().dropLast(6)) else { continue }
            let offset = Double(index) * spacing
            let due = start + (event.time - start - offset).rounded(.down) + offset
            lateness.append(event.time - due)
        }
        return StaggeredResult(
            count: count, seconds: seconds, swaps: lateness.count, lateness: Summary(lateness),
            cpuScheduled: cpu1 - cpu0)
    }
}
