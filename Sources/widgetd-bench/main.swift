import Foundation
import Glibc

// widgetd-bench: drives the real `widgetd` binary as a separate process, outputs on tmpfs, and prints one line per
// figure, with issue 6's goal beside each figure it has one for. It asserts nothing: it measures.

let usage = """
    usage: widgetd-bench [--quick] [--seconds S] [--idle-seconds S] [--only SECTIONS] [--swap-n LIST]
                         [--i3blocks-n LIST] [--startup-n N] [--samples K] [--widgetd PATH] [--no-build] [--keep]

    Runs the release widgetd as a separate process with its outputs on tmpfs and prints one line per figure,
    issue 6's goal beside each figure that has one, and i3blocks 1.4 with the same clocks in the same run.

      --quick            5 s windows and fewer samples (under two minutes in all)
      --seconds S        the swap and i3blocks window (default 30, quick 5)
      --idle-seconds S   the idle window (default 20, quick 5)
      --only SECTIONS    comma-separated: swap, i3blocks, reload, idle, startup, memory, bar, pathological,
                         plugin (default: all)
      --swap-n LIST      clock counts for the swap figures (default 10,100,1000)
      --i3blocks-n LIST  block counts for i3blocks (default 1000; the swap figures are measured for each too)
      --startup-n N      widgets in the start-up config (default 10000)
      --samples K        FIFO requests per latency figure (default 200, quick 50)
      --widgetd PATH     the daemon binary (default: widgetd beside this program, brought up to date first)
      --no-build         use the widgetd beside this program as it is
      --keep             keep the temporary directory under /dev/shm
    """

struct Options {
    var quick = false
    var seconds: Double?
    var idleSeconds: Double?
    var sections: Set<String> = [
        "swap", "i3blocks", "reload", "idle", "startup", "memory", "bar", "pathological", "plugin",
    ]
    var swapCounts = [10, 100, 1000]
    var i3blocksCounts = [1000]
    var startupCount = 10_000
    var samples: Int?
    var widgetd: String?
    var keep = false
    var build = true

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ flag: String) -> String {
            guard let next = rest.popFirst() else { fail("\(flag) needs a value") }
            return next
        }
        func list(_ flag: String) -> [Int] {
            let values = value(flag).split(separator: ",").compactMap { Int($0) }
            guard !values.isEmpty, values.allSatisfy({ $0 > 0 }) else { fail("\(flag): give counts like 10,100") }
            return values
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": options.quick = true
            case "--seconds": options.seconds = number(value(argument), argument)
            case "--idle-seconds": options.idleSeconds = number(value(argument), argument)
            case "--only":
                options.sections = Set(value(argument).split(separator: ",").map(String.init))
                let known: Set = [
                    "swap", "i3blocks", "reload", "idle", "startup", "memory", "bar", "pathological", "plugin",
                ]
                if !options.sections.isSubset(of: known) {
                    fail(
                        "--only: unknown section \(options.sections.subtracting(known).sorted().joined(separator: ", "))"
                    )
                }
            case "--swap-n": options.swapCounts = list(argument)
            case "--i3blocks-n": options.i3blocksCounts = list(argument)
            case "--startup-n": options.startupCount = list(argument)[0]
            case "--samples": options.samples = Int(number(value(argument), argument))
            case "--widgetd": options.widgetd = value(argument)
            case "--keep": options.keep = true
            case "--no-build": options.build = false
            case "-h", "--help":
                print(usage)
                exit(0)
            default: fail("unknown argument '\(argument)'")
            }
        }
        return options
    }

    var window: Double { seconds ?? (quick ? 5 : 30) }
    var idleWindow: Double { idleSeconds ?? (quick ? 5 : 20) }
    var sampleCount: Int { samples ?? (quick ? 50 : 200) }
}

func number(_ text: String, _ flag: String) -> Double {
    guard let value = Double(text), value > 0 else { fail("\(flag): give a positive number") }
    return value
}

func fail(_ message: String) -> Never {
    complain("widgetd-bench: \(message)\n\(usage)\n")
    exit(64)
}

/// The widgetd binary: the one asked for, else the one beside this program, which is first brought up to date
/// (`swift build --product widgetd`, a second when nothing changed) so that the figures are the current sources'.
func locateWidgetd(_ given: String?, build: Bool) -> String {
    if let given { return given }
    let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let candidate = (me as NSString).deletingLastPathComponent + "/widgetd"
    // This file is Sources/widgetd-bench/main.swift in the package.
    let root = (((#filePath as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent as NSString)
        .deletingLastPathComponent
    if build, FileManager.default.fileExists(atPath: root + "/Package.swift") {
        let configuration = me.contains("/debug/") ? "debug" : "release"
        complain("widgetd-bench: swift build -c \(configuration) --product widgetd\n")
        let result = try? Child.run(
            ["swift", "build", "-c", configuration, "--product", "widgetd", "--package-path", root],
            environment: ProcessInfo.processInfo.environment, stdout: .null, stderr: Child.inherit)
        if result?.status != 0 { complain("widgetd-bench: the build failed\n") }
    }
    guard FileManager.default.isExecutableFile(atPath: candidate) else {
        complain(
            """
            widgetd-bench: no widgetd binary at \(candidate)
            build it first (swift build -c release --product widgetd), or run scripts/bench, which builds both

            """)
        exit(1)
    }
    return candidate
}

func machineDescription() -> String {
    let cpuinfo = Proc.read("/proc/cpuinfo") ?? ""
    let model =
        cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
        .map { $0.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    var names = utsname()
    uname(&names)
    let release = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return "\(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPUs (\(model)), Linux \(release)"
}

// MARK: - The run

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let widgetd = locateWidgetd(options.widgetd, build: options.build)
var template = Array("/dev/shm/widgetd-bench.XXXXXX".utf8CString)
guard mkdtemp(&template) != nil else { fail("cannot create a directory under /dev/shm") }
let root = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
signal(SIGPIPE, SIG_IGN)

let report = Report()
print("# widgetd-bench")
print("machine:  \(machineDescription())")
print("load:     \(Proc.loadAverage()) (1, 5, 15 min) at start")
print(
    "daemon:   \(widgetd)\(widgetd.contains("/debug/") ? "  (a DEBUG build: figures are not the release daemon's)" : "")"
)
print("outputs:  \(root) (tmpfs)")
print(
    "windows:  \(Format.number(options.window)) s swaps and i3blocks, \(Format.number(options.idleWindow)) s idle, \(options.sampleCount) samples per latency"
)

var swaps: [Int: SwapResult] = [:]
var exitCode: Int32 = 0

@MainActor func runSection(_ name: String, _ body: () throws -> Void) {
    do {
        try body()
    } catch {
        report.note("\(name) failed: \(error)")
        exitCode = 1
    }
}

// i3blocks' ratios need widgetd's swap cost at the same N, measured in the same run.
let swapCounts = Array(
    Set(
        (options.sections.contains("swap") ? options.swapCounts : [])
            + (options.sections.contains("i3blocks") ? options.i3blocksCounts : []))
).sorted()
if !swapCounts.isEmpty {
    report.section("Entry swaps: N clocks with per-second entries (format %T), \(Format.number(options.window)) s")
    for count in swapCounts {
        runSection("swap N=\(count)") {
            let result = try SwapBench.run(count: count, seconds: options.window, root: root, widgetd: widgetd)
            swaps[count] = result
            let expected = Int(Double(count) * options.window)
            report.figure(
                "swap cost N=\(count)", "\(Format.ms(result.cpuPerThousand)) CPU/1000 swaps",
                "(\(result.swaps) swaps of \(expected) due; \(Format.ms(result.cpuScheduled)) on CPU by schedstat; "
                    + "utime+stime \(Int((result.cpuTicks * Proc.ticksPerSecond).rounded())) ticks = \(Format.ms(result.ticksPerThousand))/1000)"
            )
            report.figure(
                "lateness N=\(count) p50/p99/max",
                "\(Format.ms(result.lateness.median)) / \(Format.ms(result.lateness.p99)) / \(Format.ms(result.lateness.max))",
                "(second boundary → <name>.plain renamed, each swap)")
            report.figure(
                "first rename N=\(count) p50/p99",
                "\(Format.ms(result.first.median)) / \(Format.ms(result.first.p99))",
                "(boundary → first file of the second: timer and wake-up)")
        }
    }
    if swapCounts.contains(1000) && options.sections.contains("swap") {
        runSection("staggered N=1000") {
            let result = try StaggeredBench.run(count: 1000, seconds: options.window, root: root, widgetd: widgetd)
            report.goal(
                "lateness N=1000 staggered p50/p99/max",
                "\(Format.ms(result.lateness.median)) / \(Format.ms(result.lateness.p99)) / \(Format.ms(result.lateness.max))",
                goal: "p99 ≤ 2 ms", met: result.lateness.p99 <= 0.002,
                "(exec timelines, entries 1 ms apart: each due alone; \(result.swaps) swaps, "
                    + "\(Format.ms(result.cpuPerThousand)) CPU/1000 with a wake-up each)")
        }
    }
    if let ten = swaps[10], let thousand = swaps[1000] {
        let ratio = thousand.cpuPerThousand / ten.cpuPerThousand
        report.goal(
            "swap cost N=1000 / N=10", Format.ratio(ratio), goal: "≤ 1.5×", met: ratio <= 1.5,
            "(\(Format.ms(thousand.cpuPerThousand)) vs \(Format.ms(ten.cpuPerThousand)))")
    }
    var floor: FloorResult?
    if swapCounts.contains(1000) {
        runSection("kernel floor") {
            let result = try FloorBench.run(count: 1000, rounds: options.quick ? 5 : 20, root: root)
            floor = result
            report.figure(
                "kernel floor: 1000 bare file replacements", Format.ms(result.total.median),
                "(p50 of \(result.total.count) rounds: open+write+close \(Format.ms(result.create.median)), "
                    + "rename over the old file \(Format.ms(result.rename.median)); no program replacing files "
                    + "atomically lands 1000 faster here)")
        }
    }
    if let result = swaps[1000] {
        let renameFloor = floor.map { "; the kernel alone needs \(Format.ms($0.rename.median)) to rename 1000" } ?? ""
        report.goal(
            "lateness N=1000 same-second p99", Format.ms(result.lateness.p99), goal: "≤ 2 ms",
            met: result.lateness.p99 <= 0.002,
            "(all 1000 are due at the same instant, so this is most of the burst\(renameFloor))")
        report.goal(
            "burst of 1000 → all renamed (p50 of seconds)", Format.ms(result.burst.median), goal: "≤ 50 ms",
            met: result.burst.median <= 0.05,
            "(p99 \(Format.ms(result.burst.p99)), max \(Format.ms(result.burst.max)) over \(result.burst.count) seconds"
                + (floor.map { "; \(Format.ratio(result.burst.median / $0.total.median)) the kernel floor" } ?? "")
                + ")")
        let perSwap = Double(result.wchar) / Double(max(result.swaps, 1))
        report.figure(
            "bytes written per swap N=1000", "\(Format.number(perSwap)) B (wchar)",
            "(file c0.plain = \(result.fileBytes) B; "
                + "\(String(format: "%.3f", Double(result.renames) / Double(max(result.swaps, 1)))) renames/swap; "
                + "write_bytes \(result.writeBytes) B: tmpfs has no block device to count)")
    }
    for count in swapCounts {
        guard let result = swaps[count] else { continue }
        report.figure(
            "per-second clocks N=\(count): peak RSS", Format.kB(Double(result.peakKilobytes)),
            "(\(result.descriptors) fds, \(result.threads) threads; each clock holds its hour as a rule, not 3600 entries)"
        )
    }
    if let small = swaps[swapCounts.first!], let large = swaps[swapCounts.last!], large.count > small.count {
        let perInstance = Double(large.peakKilobytes - small.peakKilobytes) / Double(large.count - small.count)
        report.goal(
            "memory per per-second clock", Format.kB(perInstance), goal: "≤ 4 kB", met: perInstance <= 4,
            "(peak RSS N=\(large.count) minus N=\(small.count), per clock)")
    }
}

if options.sections.contains("reload") {
    report.section("FIFO requests → file renamed, \(options.sampleCount) each")
    var latencies: [String: Summary] = [:]
    for request in [RequestBench.Request.reload, .click] {
        for count in [1, 1000] {
            runSection("\(request.rawValue) N=\(count)") {
                let summary = try RequestBench.latency(
                    request, count: count, samples: options.sampleCount, root: root, widgetd: widgetd)
                latencies["\(request.rawValue)-\(count)"] = summary
                let what = request == .reload ? "reload NAME (quotes)" : "click NAME 1 (motivations)"
                let name = "\(request.rawValue) N=\(count) p50/p99"
                let value = "\(Format.ms(summary.median)) / \(Format.ms(summary.p99))"
                let detail = "(\(what); max \(Format.ms(summary.max)))"
                if request == .reload {
                    report.goal(
                        name, value, goal: "p50 ≤ 0.5 ms, p99 ≤ 2 ms",
                        met: summary.median <= 0.0005 && summary.p99 <= 0.002, detail)
                } else {
                    report.figure(name, value, detail)
                }
            }
        }
        if let one = latencies["\(request.rawValue)-1"], let many = latencies["\(request.rawValue)-1000"] {
            let ratio50 = many.median / one.median
            let ratio99 = many.p99 / one.p99
            report.goal(
                "\(request.rawValue) N=1000 / N=1 (p50, p99)", "\(Format.ratio(ratio50)), \(Format.ratio(ratio99))",
                goal: "≤ 2×", met: ratio50 <= 2 && ratio99 <= 2)
        }
    }
    runSection("click kind reload") {
        let samples = options.quick ? 3 : 10
        let summary = try RequestBench.kindReload(count: 1000, samples: samples, root: root, widgetd: widgetd)
        report.figure(
            "click on 1 of 1000 motivations → all renamed", "\(Format.ms(summary.median)) p50",
            "(the intent reloads the whole kind; max \(Format.ms(summary.max)) over \(samples))")
    }
}

if options.sections.contains("plugin") {
    let reloads = options.quick ? 200 : 1000
    report.section("Timeline reloads one after another: a plugin against exec, \(reloads) each, in one run")
    var results: [String: PluginBench.Result] = [:]
    for plugin in [true, false] {
        let name = plugin ? "plugin (one process)" : "exec (fork per reload)"
        runSection(name) {
            let result = try PluginBench.run(plugin: plugin, reloads: reloads, root: root, widgetd: widgetd)
            results[name] = result
            report.figure(
                "CPU per 1000 reloads, \(name)", Format.number(result.cpuSeconds) + " s",
                "(daemon and children; reload → file p50 \(Format.ms(result.wall.median)), p99 \(Format.ms(result.wall.p99)))"
            )
        }
    }
    if let plugin = results["plugin (one process)"], let exec = results["exec (fork per reload)"] {
        report.figure("exec / plugin CPU", Format.ratio(exec.cpuSeconds / plugin.cpuSeconds))
    }
}

if options.sections.contains("idle") {
    report.section("Idle: 50 quotes + 50 motivations widgets, nothing due, \(Format.number(options.idleWindow)) s")
    runSection("idle") {
        let result = try IdleBench.run(seconds: options.idleWindow, root: root, widgetd: widgetd)
        report.goal(
            "idle wake-ups", "\(Format.number(result.perMinute)) /min", goal: "0", met: result.switches == 0,
            "(\(result.switches) context switches over \(result.threads) threads in \(Format.number(result.seconds)) s; "
                + "CPU \(Format.ms(result.cpu)))")
    }
}

if options.sections.contains("pathological") {
    report.section("check of pathological configs (bounded output, time linear in the input)")
    runSection("pathological") {
        for result in try PathologicalConfigBench.run(runs: options.quick ? 1 : 3, root: root, widgetd: widgetd) {
            report.figure(
                "check of \(result.name) (\(Format.number(Double(result.bytes) / 1024)) kB)",
                Format.ms(result.check.median), "(printed \(Format.number(Double(result.printed) / 1024)) kB)")
        }
    }
}

var startups: [Int: StartupResult] = [:]
if options.sections.contains("startup") || options.sections.contains("memory") {
    let count = options.startupCount
    report.section("Start-up and memory: motivations, quotes and per-minute clocks in turn")
    runSection("start-up N=\(count)") {
        let result = try StartupBench.run(
            count: count, checkRuns: options.quick ? 3 : 5, root: root, widgetd: widgetd)
        startups[count] = result
        if let check = result.check {
            report.goal(
                "check N=\(count) (wall, p50)", Format.ms(check.median), goal: "≤ 300 ms", met: check.median <= 0.3,
                "(min \(Format.ms(check.min)) of \(check.count) runs)")
        }
        report.goal(
            "start → all \(count) placeholders", Format.ms(result.painted), goal: "≤ 1 s", met: result.painted <= 1)
        report.figure("start → all \(count) timelines in", Format.ms(result.timelines), "(every status file present)")
    }
    if options.sections.contains("memory") {
        // N = 3 is one widget of each kind in the mix: the store opened, the clock's calendar data loaded. Costs
        // paid once per kind are not per instance, so the per-instance figures are taken above it.
        for count in [3, 1000] where count != options.startupCount {
            runSection("memory N=\(count)") {
                startups[count] = try StartupBench.run(count: count, checkRuns: 0, root: root, widgetd: widgetd)
            }
        }
        var empty: StartupResult?
        runSection("memory, no widgets") {
            empty = try StartupBench.run(count: 0, checkRuns: 0, root: root, widgetd: widgetd, widgets: [])
        }
        var storeless: StartupResult?
        runSection("memory, one quotes widget") {
            storeless = try StartupBench.run(
                count: 1, checkRuns: 0, root: root, widgetd: widgetd, widgets: [Widgets.quotes("q0")])
        }
        for count in startups.keys.sorted() {
            let result = startups[count]!
            report.figure(
                "memory N=\(count)", "peak RSS \(Format.kB(Double(result.peakKilobytes)))",
                "(RSS now \(Format.kB(Double(result.residentKilobytes))), of it anonymous \(Format.kB(Double(result.anonymousKilobytes))); "
                    + "\(result.descriptors) fds, \(result.threads) threads)")
        }
        if let base = empty {
            report.goal(
                "baseline peak RSS (N=0, no widgets)", Format.kB(Double(base.peakKilobytes)), goal: "≤ 20 MB",
                met: base.peakKilobytes <= 20 * 1024,
                "(anonymous \(Format.kB(Double(base.anonymousKilobytes))), the rest the binary's and libraries' pages; "
                    + "\(base.descriptors) fds)")
        }
        if let base = storeless {
            report.figure(
                "peak RSS, 1 quotes widget", Format.kB(Double(base.peakKilobytes)),
                "(anonymous \(Format.kB(Double(base.anonymousKilobytes))); \(base.descriptors) fds)")
        }
        if let base = startups[3] {
            report.figure(
                "peak RSS, one widget of each kind (N=3)", Format.kB(Double(base.peakKilobytes)),
                "(the store open: SQLite and its page cache; the clock's calendar data; anonymous "
                    + "\(Format.kB(Double(base.anonymousKilobytes))))")
            for count in startups.keys.sorted() where count > 3 {
                let result = startups[count]!
                let perInstance = Double(result.peakKilobytes - base.peakKilobytes) / Double(count - 3)
                let anonymous = Double(result.anonymousKilobytes - base.anonymousKilobytes) / Double(count - 3)
                report.goal(
                    "memory per instance N=\(count)", Format.kB(perInstance), goal: "≤ 4 kB", met: perInstance <= 4,
                    "(peak RSS above N=3, per instance; anonymous memory alone, steadier at small N: "
                        + "\(Format.kB(anonymous)))")
            }
            // Held to "does not grow with N": the largest N against the next smaller one.
            let counts = startups.keys.sorted()
            let grows =
                counts.count >= 2
                && startups[counts.last!]!.descriptors > startups[counts[counts.count - 2]]!.descriptors
            report.goal(
                "descriptors at N=\(counts.map(String.init).joined(separator: ", "))",
                counts.map { String(startups[$0]!.descriptors) }.joined(separator: ", "),
                goal: "constant in N", met: !grows,
                "(fewest of 5 readings; the daemon's own: lock, FIFO ×2, timerfd, inotify, signalfd, eventfd, store)")
        }
    }
}

// `widgetd bar` with 50 widgets beside i3blocks with the same 50 clocks: CPU per minute and wake-ups.
if options.sections.contains("bar") {
    let count = 50
    report.section(
        "widgetd bar (i3bar's status command) with \(count) widgets, \(Format.number(options.window)) s each, "
            + "beside i3blocks with the same \(count) clocks")
    for ticking in [true, false] {
        let what = ticking ? "\(count) per-second clocks" : "\(count) quotes beside a per-second clock"
        runSection("bar \(what)") {
            let result = try BarBench.run(
                count: count, ticking: ticking, seconds: options.window, root: root, widgetd: widgetd)
            report.figure(
                "bar: \(what)",
                "\(Format.ms((result.barCPU + result.daemonCPU) * result.perMinute)) CPU/min",
                "(bar \(Format.ms(result.barCPU * result.perMinute)) + daemon \(Format.ms(result.daemonCPU * result.perMinute)); "
                    + "\(result.lines) lines carrying \(result.updates) block updates in \(Format.number(result.seconds)) s)"
            )
            report.figure(
                "bar wake-ups: \(what)",
                "\(Format.number(Double(result.barWakeups) * result.perMinute)) /min",
                "(daemon \(Format.number(Double(result.daemonWakeups) * result.perMinute)) /min; context switches)")
        }
    }
    for variant in [I3blocksResult.Variant.command, .persistShell] {
        runSection("bar: i3blocks \(variant.rawValue)") {
            let result = try I3blocksBench.run(
                count: count, variant: variant, seconds: options.window, root: root, ticker: nil)
            let perMinute = 60 / options.window
            report.figure(
                "i3blocks \(variant.rawValue): \(count) clocks", "\(Format.ms(result.cpu * perMinute)) CPU/min",
                "(own \(Format.ms(result.ownCPU * perMinute)) + children \(Format.ms(result.childrenCPU * perMinute)); "
                    + "\(result.lines) lines carrying \(result.updates) block updates)")
            report.figure(
                "i3blocks wake-ups: \(variant.rawValue)", "\(Format.number(Double(result.wakeups) * perMinute)) /min",
                "(i3blocks' own context switches; its children's not counted)")
        }
    }
}

// Last: a thousand forking blocks load a small machine for a while after they stop, which would disturb the
// latency figures of anything measured after them.
if options.sections.contains("i3blocks") {
    report.section(
        "i3blocks 1.4 with the same N clocks as blocks, \(Format.number(options.window)) s each, beside the swaps above"
    )
    let ticker = I3blocksBench.buildTicker(root: root)
    if ticker == nil { report.note("no C compiler: the persist-c variant is skipped") }
    for count in options.i3blocksCounts {
        for variant in I3blocksResult.Variant.allCases where variant != .persistC || ticker != nil {
            runSection("i3blocks \(variant.rawValue) N=\(count)") {
                let result = try I3blocksBench.run(
                    count: count, variant: variant, seconds: options.window, root: root, ticker: ticker)
                let expected = Int(Double(count) * options.window)
                report.figure(
                    "i3blocks \(variant.rawValue) N=\(count)", "\(Format.ms(result.cpuPerThousand)) CPU/1000 updates",
                    "(CPU \(Format.number(result.cpu)) s = own \(Format.number(result.ownCPU)) s + children \(Format.number(result.childrenCPU)) s; "
                        + "\(result.updates) of \(expected) updates delivered in \(result.lines) lines; peak RSS \(Format.kB(Double(result.peakKilobytes)))"
                        + (result.childrenKilobytes > 0
                            ? " + loops \(Format.kB(Double(result.childrenKilobytes)))" : "") + ")")
                guard let ours = swaps[count] else { return }
                let ratio = result.cpuPerThousand / ours.cpuPerThousand
                let goal: Double = variant == .command ? 30 : 5
                let name = "vs i3blocks \(variant.rawValue) N=\(count)"
                let value = "\(Format.ratio(ratio)) less CPU/update"
                let detail =
                    "(widgetd \(Format.ms(ours.cpuPerThousand)) vs \(Format.ms(result.cpuPerThousand)) per 1000; "
                    + "CPU totals \(Format.number(ours.cpuScheduled)) s vs \(Format.number(result.cpu)) s; "
                    + "peak RSS \(Format.kB(Double(ours.peakKilobytes))) vs \(Format.kB(Double(result.peakKilobytes + result.childrenKilobytes))))"
                // The issue holds the ratio to a goal at N = 1000.
                if count == 1000 {
                    report.goal(name, value, goal: "≥ \(Int(goal))×", met: ratio >= goal, detail)
                } else {
                    report.figure(name, value, detail)
                }
            }
        }
    }
}

report.summary()
print("load:     \(Proc.loadAverage()) (1, 5, 15 min) at end")
if options.keep {
    print("kept:     \(root)")
} else {
    removeTree(root)
}
exit(exitCode)
