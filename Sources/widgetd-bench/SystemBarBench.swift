import Foundation
import Glibc

/// What a status program and everything it ran cost over one window, as i3bar runs it (its stdout drained).
struct StatusProgramCost {
    var seconds: Double
    /// Own and children's CPU in the window, in seconds: for widgetd, the daemon and `widgetd bar` together.
    var cpu: Double
    /// Processes started in its trees in the window (a script per block per interval, for i3blocks).
    var forks: Int?
    /// Context switches of its own threads in the window: how often it woke (the daemon's, for widgetd).
    var wakeups: Int
    /// Status lines printed in the window.
    var lines: Int

    var cpuPerMinute: Double { cpu * 60 / seconds }
    var wakeupsPerMinute: Double { Double(wakeups) * 60 / seconds }
}

/// The bar people run — clock, CPU, memory, load, disk, network, battery, sound — as widgetd's system kinds (daemon
/// and `widgetd bar`), as i3status's modules and as i3blocks blocks running the small shell commands
/// i3blocks-contrib's scripts amount to; and i3status's own default config beside its `widgetd import i3status`.
/// Every program refreshes at i3status's default 5 s.
enum SystemBarBench {
    /// The bar's widgets: name, then the widget's lines under it.
    static let widgets: [(name: String, body: String)] = [
        ("cpu", "kind: cpu\nintent: {format: \"CPU {usage}\"}"),
        ("mem", "kind: memory\nintent: {format: \"{used} | {available}\"}"),
        ("load", "kind: load"),
        ("disk", "kind: disk\ninterval: 5s\nintent: {path: /, format: \"{avail}\"}"),
        ("net", "kind: network\nintent: {format: \"E: {ip}\"}"),
        ("snd", "kind: sound\nintent: {format: \"♪ {volume}\"}"),
        ("bat", "kind: battery"),
        ("clock", "kind: clock\nintent: {format: \"%H:%M\"}"),
    ]

    static let i3statusModules = """
        order += "cpu_usage"
        order += "memory"
        order += "load"
        order += "disk /"
        order += "ethernet _first_"
        order += "volume master"
        order += "battery all"
        order += "tztime local"
        cpu_usage { format = "CPU %usage" }
        memory { format = "%used | %available" }
        load { format = "%1min" }
        disk "/" { format = "%avail" }
        ethernet _first_ { format_up = "E: %ip" format_down = "E: down" }
        volume master { format = "♪ %volume" device = "pulse" }
        tztime local { format = "%H:%M" }
        """

    /// What i3blocks-contrib's scripts for the same blocks come down to, each a shell a block, every 5 s.
    static let i3blocksCommands = [
        "awk '/^cpu /{printf \"CPU %d%%\\n\", 100-100*$5/($2+$3+$4+$5+$6+$7+$8)}' /proc/stat",
        "awk '/MemTotal/{t=$2}/MemAvailable/{a=$2}END{printf \"%.1f GiB | %.1f GiB\\n\",(t-a)/1048576,a/1048576}' "
            + "/proc/meminfo",
        "cut -d' ' -f1 /proc/loadavg",
        "df -h --output=avail / | tail -n 1",
        "ip -4 -o addr show scope global | awk '{print \"E: \" $4; exit}'",
        "pactl get-sink-volume @DEFAULT_SINK@ | grep -o '[0-9]*%' | head -n 1",
        "cat /sys/class/power_supply/BAT*/capacity 2>/dev/null || echo 'No battery'",
        "date +%H:%M",
    ]

    /// A headless PulseAudio with one null sink, for the sound widget and i3status's volume module alike: what both
    /// are given to reach it is `environment`.
    final class SoundServer {
        let child: Child
        let environment: [String: String]

        init(root: String) throws {
            let directory = root + "/pulse"
            for path in [directory, directory + "/home", directory + "/runtime"] { try makeDirectory(path) }
            let socket = directory + "/native"
            child = try Child(
                [
                    "pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--disable-shm=yes",
                    "--use-pid-file=no", "-L", "module-null-sink",
                    "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
                ],
                environment: [
                    "PATH": "/usr/bin:/bin", "HOME": directory + "/home", "XDG_RUNTIME_DIR": directory + "/runtime",
                    "PULSE_RUNTIME_PATH": directory + "/runtime",
                ], stderr: directory + "/pulseaudio.log")
            environment = ["PULSE_SERVER": "unix:" + socket]
            guard waitUntil(timeout: 10, { access(socket, F_OK) == 0 }) else {
                child.stop()
                throw BenchError("pulseaudio did not start; see \(directory)/pulseaudio.log")
            }
        }

        deinit { child.stop() }
    }

    /// widgetd on `config` (a widgets.yaml text), the bar showing `barArguments`.
    static func widgetd(
        config: String, barArguments: [String], timelines: Int, seconds: Double, settle: Double, root: String,
        name: String, widgetd: String, environment: [String: String] = [:]
    ) throws -> StatusProgramCost {
        let scenario = try Scenario(root: root, name: name, widgetd: widgetd, extraEnvironment: environment)
        try config.write(toFile: scenario.config, atomically: true, encoding: .utf8)
        let daemon = try scenario.startDaemon()
        defer { daemon.stop() }
        try scenario.waitForTimelines(timelines)
        let bar = try Child(
            [widgetd, "bar"] + barArguments + ["--config", scenario.config], environment: scenario.environment,
            stdout: .pipe, stderr: scenario.directory + "/bar.log")
        defer { bar.stop() }
        return try measure(
            roots: [daemon.pid, bar.pid], woken: daemon.pid, output: bar.pipeReadEnd, seconds: seconds, settle: settle,
            what: "widgetd bar (\(scenario.directory))")
    }

    /// The pushed kinds alone, with nothing changing: the daemon's context switches over one window (the goal: none).
    static let pushedWidgets =
        "widgets:\n  bat: {kind: battery}\n  net: {kind: network}\n  snd: {kind: sound}\n  song: {kind: music}\n"

    static func pushedWakeups(
        seconds: Double, settle: Double, root: String, name: String, widgetd: String, environment: [String: String]
    ) throws
        -> Int
    {
        let scenario = try Scenario(root: root, name: name, widgetd: widgetd, extraEnvironment: environment)
        try pushedWidgets.write(toFile: scenario.config, atomically: true, encoding: .utf8)
        let daemon = try scenario.startDaemon()
        defer { daemon.stop() }
        try scenario.waitForTimelines(pushedWidgets.split(separator: "\n").count - 1)
        // Past start-up's last wake-up (its memory handed back half a second after the last first answer).
        sleepSeconds(settle)
        let before = Proc.contextSwitches(daemon.pid)
        sleepSeconds(seconds)
        return Proc.contextSwitches(daemon.pid) - before
    }

    /// i3status on `config`, its i3bar protocol read as i3bar reads it.
    static func i3status(
        config: String, seconds: Double, settle: Double, root: String, name: String,
        environment: [String: String] = [:]
    ) throws -> StatusProgramCost {
        try statusCommand(
            "i3status", config: config, seconds: seconds, settle: settle, root: root, name: name,
            environment: environment)
    }

    /// i3blocks with one block per command, each every 5 s.
    static func i3blocks(
        commands: [String], seconds: Double, settle: Double, root: String, name: String,
        environment: [String: String] = [:]
    ) throws -> StatusProgramCost {
        let blocks = commands.enumerated().map { "[b\($0.offset)]\ncommand=\($0.element)\ninterval=5\n" }
        return try statusCommand(
            "i3blocks", config: blocks.joined(separator: "\n"), seconds: seconds, settle: settle, root: root,
            name: name, environment: environment)
    }

    /// `program -c FILE` with `config` in FILE, in a directory of its own under `root`, measured as a bar runs it.
    private static func statusCommand(
        _ program: String, config: String, seconds: Double, settle: Double, root: String, name: String,
        environment: [String: String]
    ) throws -> StatusProgramCost {
        let directory = root + "/" + name
        try makeDirectory(directory)
        let path = directory + "/" + program + ".conf"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let child = try Child(
            [program, "-c", path], environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            stdout: .pipe, stderr: directory + "/" + program + ".log")
        defer { child.stop() }
        return try measure(
            roots: [child.pid], woken: child.pid, output: child.pipeReadEnd, seconds: seconds, settle: settle,
            what: "\(program) (\(directory))")
    }

    /// One window on whole seconds, `settle` after the second of the first status line: CPU of the trees of `roots`,
    /// the forks in them, the context switches of `woken` and the lines read from `output`.
    static func measure(
        roots: [pid_t], woken: pid_t, output: Int32, seconds: Double, settle: Double, what: String
    ) throws -> StatusProgramCost {
        let lines = BlockUpdateCounter(descriptor: output, blocks: 1)
        guard waitUntil(timeout: 30, { lines.counts.lines > 0 }) else { throw BenchError("\(what) printed nothing") }
        let start = realtime().rounded(.down) + settle
        sleepUntil(realtime: start)
        let forks = try? ForkCounter(roots: roots)
        defer { forks?.stop() }
        func cpu() -> Double {
            roots.reduce(0) {
                let tree = Proc.treeCPU($1); return $0 + tree.own + tree.children
            }
        }
        let cpu0 = cpu()
        let switches0 = Proc.contextSwitches(woken)
        let lines0 = lines.counts.lines
        sleepUntil(realtime: start + seconds)
        let cost = StatusProgramCost(
            seconds: seconds, cpu: cpu() - cpu0, forks: forks?.forks, wakeups: Proc.contextSwitches(woken) - switches0,
            lines: lines.counts.lines - lines0)
        guard roots.allSatisfy({ kill($0, 0) == 0 }) else { throw BenchError("\(what) stopped in the window") }
        return cost
    }

    /// The bar's widgets.yaml, with `bars: {system: …}` in their order.
    static var widgetsConfig: String {
        let body = widgets.map { widget in
            "  \(widget.name):\n" + widget.body.split(separator: "\n").map { "    \($0)\n" }.joined()
        }
        return "widgets:\n" + body.joined() + "bars:\n  system:\n" + widgets.map { "    - \($0.name)\n" }.joined()
    }

    static let i3statusGeneral = "general {\n output_format = \"i3bar\"\n colors = true\n interval = 5\n}\n"
}
