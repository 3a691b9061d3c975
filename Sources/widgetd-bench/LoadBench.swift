import Foundation
import Glibc

/// 57 widgets under load: a reload every 100 ms and a click every second, for a window; the CPU the daemon and its
/// children spend, and i3blocks with the same 57 blocks doing the same in the same run.
///
/// The 57 widgets are the example config's seven (config/widgets.yaml: two quotes, a per-minute and a per-second
/// clock, motivations, todos and the `load` exec widget) in turn. The reloads go to the first 19 widgets in turn, one
/// every 100 ms: i3blocks refreshes a block on a signal of its own (SIGRTMIN+1…+19), and it has about 30. The clicks
/// go to the first motivations widget (its star toggles; in i3blocks the block's command runs with BLOCK_BUTTON=1).
struct LoadResult {
    var seconds: Double
    /// Time on CPU in the window: the process's own (schedstat) and its children's, in seconds.
    var own: Double
    var children: Double
    var reloads: Int
    var clicks: Int
    var peakKilobytes: Int

    var cpu: Double { own + children }
    /// The CPU scaled to the issue's 10 minutes.
    var perTenMinutes: Double { cpu * 600 / seconds }
}

enum LoadBench {
    static let count = 57
    static let reloaded = 19
    static let clicked = 4

    /// The example's widgets, as `widgets.yaml` entries, by their place in the seven.
    static func widget(_ index: Int) -> String {
        let name = "  w\(index):\n"
        switch index % 7 {
        case 0:
            return name + "    kind: quotes\n    family: systemSmall\n    intent:\n      category: focus\n"
                + "    schedule: \"*/30 * * * *\"\n    output: [i3blocks, waybar]\n"
        case 1:
            return name + "    kind: quotes\n    family: systemMedium\n    intent:\n      category: mindfulness\n"
                + "    timezone: Europe/Berlin\n    schedule: \"0 9-17 * * mon-fri\"\n    output: plain\n"
        case 2:
            return name
                + "    kind: clock\n    family: accessoryInline\n    intent:\n      format: \"%a %d %b %H:%M\"\n"
                + "    output: [i3blocks, waybar]\n"
        case 3:
            return name + "    kind: clock\n    family: accessoryInline\n    intent:\n      format: \"%T\"\n"
                + "      seconds: true\n    output: [i3bar, tmux]\n"
        case 4:
            return name + "    kind: motivations\n    family: systemMedium\n    intent:\n      show_timestamp: true\n"
                + "    output: [i3blocks, waybar]\n"
        case 5:
            return name + "    kind: todos\n    family: systemLarge\n    output: [i3blocks, waybar]\n"
        default:
            return name + "    kind: exec\n    family: accessoryInline\n"
                + "    command: [sh, -c, 'read one five fifteen rest < /proc/loadavg; echo \"load $one\"; echo \"$one\"']\n"
                + "    interval: 10s\n    timeout: 2s\n    output: [i3blocks, waybar]\n"
        }
    }

    /// The same widget as an i3blocks block: the same command or one that prints the same kind of text, at the
    /// same interval (a quote or a star list changes only when reloaded or clicked).
    static func block(_ index: Int) -> String {
        let body: String
        switch index % 7 {
        case 0: body = "command=echo 'Focus: one thing at a time'\ninterval=1800\n"
        case 1: body = "command=echo 'Breathe in, breathe out'\ninterval=3600\n"
        case 2: body = "command=date '+%a %d %b %H:%M'\ninterval=60\n"
        case 3: body = "command=date +%T\ninterval=1\n"
        case 4: body = "command=echo \"motivation $BLOCK_BUTTON\"\n"
        case 5: body = "command=echo 'todos: 0 open'\n"
        default: body = "command=read one five fifteen rest < /proc/loadavg; echo \"load $one\"\ninterval=10\n"
        }
        return "[b\(index)]\n" + body + (index < reloaded ? "signal=\(index + 1)\n" : "") + "\n"
    }

    /// The daemon with the 57 widgets, reloaded and clicked for `seconds`.
    static func widgetd(seconds: Double, settle: Double, root: String, name: String, widgetd: String) throws
        -> LoadResult
    {
        let scenario = try Scenario(root: root, name: name, widgetd: widgetd)
        try RequestBench.addMotivation(scenario)
        try scenario.writeConfig((0..<count).map(widget))
        let daemon = try scenario.startDaemon()
        defer { daemon.stop() }
        try scenario.waitForTimelines(count)
        let fifo = open(scenario.fifo, O_WRONLY | O_CLOEXEC)
        guard fifo >= 0 else { throw BenchError("cannot open \(scenario.fifo): \(String(cString: strerror(errno)))") }
        defer { close(fifo) }
        let result = try drive(pid: daemon.pid, seconds: seconds, settle: settle) { tick in
            let line = "reload w\(tick % reloaded)\n" + (tick % 10 == 0 ? "click w\(clicked) 1\n" : "")
            guard line.withCString({ write(fifo, $0, strlen($0)) }) > 0 else {
                throw BenchError("writing the FIFO failed: \(String(cString: strerror(errno)))")
            }
        }
        guard daemon.isRunning else { throw BenchError("the daemon stopped: \(scenario.logTail)") }
        return result
    }

    /// i3blocks with the same 57 blocks, signalled and clicked the same way.
    static func i3blocks(seconds: Double, settle: Double, root: String, name: String) throws -> LoadResult {
        let directory = root + "/" + name
        try makeDirectory(directory)
        let config = directory + "/i3blocks.conf"
        try (0..<count).map(block).joined().write(toFile: config, atomically: true, encoding: .utf8)
        let (i3blocks, output) = try startI3blocks(config: config, in: directory, blocks: count, stdinPipe: true)
        defer { i3blocks.stop() }
        try waitForFirstLine(of: output, logIn: directory)
        // i3bar opens its click stream with "[", then one event per line, later ones after a comma.
        i3blocks.send("[\n")
        let click =
            #"{"name":"b\#(clicked)","button":1,"modifiers":[],"x":10,"y":10,"relative_x":5,"relative_y":5,"#
            + #""output_x":10,"output_y":10,"width":100,"height":20}"#
        let signalBase = __libc_current_sigrtmin() + 1
        var clicks = 0
        let result = try drive(pid: i3blocks.pid, seconds: seconds, settle: settle) { tick in
            kill(i3blocks.pid, signalBase + Int32(tick % reloaded))
            if tick % 10 == 0 {
                guard i3blocks.send((clicks == 0 ? "" : ",") + click + "\n") else {
                    throw BenchError("i3blocks' stdin")
                }
                clicks += 1
            }
        }
        guard i3blocks.isRunning else { throw BenchError("i3blocks stopped; see \(directory)/i3blocks.log") }
        return result
    }

    /// Every 100 ms from the window's start, `act(tick)`: a reload at every tick, and a click too at ticks 0, 10, 20….
    private static func drive(pid: pid_t, seconds: Double, settle: Double, _ act: (Int) throws -> Void) throws
        -> LoadResult
    {
        let start = realtime().rounded(.down) + settle
        sleepUntil(realtime: start)
        let before = Proc.treeCPU(pid)
        let ticks = Int((seconds * 10).rounded())
        var reloads = 0
        var clicks = 0
        for tick in 0..<ticks {
            sleepUntil(realtime: start + Double(tick) / 10)
            try act(tick)
            reloads += 1
            if tick % 10 == 0 { clicks += 1 }
        }
        sleepUntil(realtime: start + seconds)
        let after = Proc.treeCPU(pid)
        return LoadResult(
            seconds: seconds, own: after.own - before.own, children: after.children - before.children,
            reloads: reloads, clicks: clicks, peakKilobytes: Proc.statusKilobytes(pid, "VmHWM") ?? 0)
    }
}
