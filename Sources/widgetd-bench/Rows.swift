import Foundation

/// The timing rows, one by one: what each row measures, its goal, and i3blocks beside it where i3blocks does the
/// same job (a per-second clock, 57 widgets under load, an idle bar, a reload).
func issue15Rows(_ options: Options) -> [Row] {
    let large = options.large
    let huge = options.huge
    let window = Format.number(options.windowSeconds)
    return [
        Row(
            id: .swap10, title: "swap cost, N = 10 per-second clocks", goal: "≤ 30 ms CPU / 1000 swaps"
        ) { run in
            let daemon = try run.swaps(10).map { $0.cpuPerThousand * 1000 }
            let floors = try run.swapFloors().map { $0 * 1000 }
            let figure = Figure(daemon, "ms / 1000", limit: 30)
            let floor = Figure(floors, "ms / 1000")
            // Round by round: each daemon round less the floor round right after it.
            let above = Figure(zip(daemon, floors).map { $0 - $1 }, "ms / 1000")
            let i3blocks = i3blocksCost(run, .command, count: 10)
            let pages = try run.swaps(10).compactMap(\.pagesPerWake).map(Double.init)
            let floorPages = run.swapFloorPages.compactMap { $0 }.map(Double.init)
            let touched =
                pages.isEmpty || floorPages.isEmpty
                ? ""
                : "; pages touched in one wake (code and data; `clear_refs`, then `smaps_rollup`'s Referenced): "
                    + "the daemon \(Figure(pages, "pages").text), "
                    + "the floor's process \(Figure(floorPages, "pages").text)"
            return RowResult(
                [figure], i3blocks: i3blocks, beside: "the kernel floor \(floor.text), \(above.text) above it",
                note: "daemon CPU (schedstat) per 1000 entry swaps over \(window) s windows; kernel floor: a bare "
                    + "process making the daemon's four calls per file (lease, write over the old text, lease off, "
                    + "exchange), one wake a second, measured the same way after each of the daemon's rounds: "
                    + "\(floor.text); the daemon above it, round by round: \(above.text); i3blocks: 10 `interval=1` "
                    + "`date +%T` command blocks, own + children CPU per 1000 updates delivered" + touched)
        },
        Row(id: .swap1000, title: "swap cost, N = \(large)", goal: "≤ 20 ms CPU / 1000 swaps") { run in
            let figure = Figure(try run.swaps(large).map { $0.cpuPerThousand * 1000 }, "ms / 1000", limit: 20)
            let i3blocks = i3blocksCost(run, .persistC, count: large)
            return RowResult(
                [figure], i3blocks: i3blocks + " (fork-free persist loops)",
                note: "i3blocks at N = \(large): compiled `interval=persist` loops that fork nothing, its cheapest "
                    + "way (command blocks would fork \(large) shells a second on this machine)")
        },
        Row(
            id: .firstFile, title: "first file of a second, N = 10, after the boundary (p50)",
            goal: "≤ 0.5 ms"
        ) { run in
            let firsts = try run.swaps(10).map { $0.first.median * 1000 }
            let timers = run.rounds.map { _ in TimerFloorBench.run(samples: options.quick ? 50 : 300) }
            let timer = Figure(timers.map { $0.p99 * 1000 }, "ms")
            return RowResult(
                [Figure(firsts, "ms", limit: 0.5)], beside: "timer alone: p99 \(timer.text)",
                note: "boundary → first `.plain` renamed (inotify, read by this process); the timer alone "
                    + "(clock_nanosleep to a 10 ms boundary, this process): p99 \(timer.text), p50 "
                    + "\(Figure(timers.map { $0.median * 1000 }, "ms").text)")
        },
        Row(
            id: .burst, title: "burst of \(large) → all renamed (p50)", goal: "≤ 2× the kernel floor, same run"
        ) { run in
            let bursts = try run.swaps(large).map { $0.burst.median * 1000 }
            let floors = try run.floors().map { $0.total.median * 1000 }
            let floor = Figure(floors, "ms")
            let ratio = Summary(bursts).median / floor.median
            return RowResult(
                [Figure(bursts, "ms", limit: 2 * floor.median)],
                beside: "\(Format.ratio(ratio)) the kernel floor, \(Format.number(floor.median)) ms",
                note: "kernel floor (\(large) temp files written and renamed over old ones with bare system calls): "
                    + "\(floor.text); the burst is \(Format.ratio(ratio)) it")
        },
        Row(id: .clockMemory, title: "memory per per-second clock", goal: "≤ 4 kB") { run in
            let small = try run.swaps(10)
            let many = try run.swaps(large)
            let per = zip(small, many).map { Double($1.peakKilobytes - $0.peakKilobytes) / Double(large - 10) }
            return RowResult(
                [Figure(per, "kB", limit: 4)],
                note: "(peak RSS at N = \(large) − at N = 10) / \(large - 10), per round")
        },
        Row(
            id: .cpu57,
            title: "CPU for 57 widgets, a reload every 100 ms and a click a second, scaled to 10 min",
            goal: "≤ 30 s per 10 min"
        ) { run in
            var results: [LoadResult] = []
            for round in run.rounds {
                results.append(
                    try LoadBench.widgetd(
                        seconds: options.cpuSeconds, settle: options.settle, root: run.root, name: "load-r\(round)",
                        widgetd: run.widgetd))
            }
            var i3blocks: String?
            do {
                let theirs = try LoadBench.i3blocks(
                    seconds: options.cpuSeconds, settle: options.settle, root: run.root, name: "load-i3blocks")
                i3blocks =
                    "\(Format.number(theirs.perTenMinutes)) s per 10 min (own \(Format.number(theirs.own)) + children "
                    + "\(Format.number(theirs.children)) s in \(Format.number(theirs.seconds)) s)"
            } catch {
                i3blocks = "failed: \(error)"
            }
            let children = Figure(results.map(\.children), "s")
            return RowResult(
                [Figure(results.map(\.perTenMinutes), "s", limit: 30)], i3blocks: i3blocks,
                beside: "measured over \(Format.number(options.cpuSeconds)) s, scaled to 10 min",
                note: "measured over \(Format.number(options.cpuSeconds)) s windows (--cpu-window), × "
                    + "\(Format.number(600 / options.cpuSeconds)) to 10 min; daemon + children (its exec widgets' "
                    + "shells: \(children.text) of it per window); \(results.first?.reloads ?? 0) reloads and "
                    + "\(results.first?.clicks ?? 0) clicks per window; the example config's 7 widgets in turn")
        },
        Row(id: .binary, title: "release binary", goal: "≤ 16 MB") { run in
            let info = BinaryInfo(path: run.widgetd)
            let stripped =
                switch info.stripped {
                case true?: "stripped"
                case false?: "not stripped"
                case nil: "not an ELF file this reads"
                }
            let debug = run.widgetd.contains("/debug/") ? "; a DEBUG build" : ""
            return RowResult(
                [Figure([Double(info.bytes) / 1_048_576], "MB", limit: 16)], beside: stripped,
                note: "\(run.widgetd): \(info.bytes) bytes, \(stripped)\(debug)")
        },
        Row(id: .idleRSS, title: "idle RSS, example config / no widgets", goal: "≤ 10 MB / ≤ 8 MB") { run in
            guard let example = run.exampleConfig else {
                return .missing("no example config (config/widgets.yaml or --example-config)")
            }
            // Long enough for what settles after start-up: the daemon hands back start-up's pages half a second after
            // the last first answer, and the example's to-dos widget reads the store again 1 and 3 s after its first
            // (its `atEnd` spacing), faulting that path's code back in. Later re-reads run the same code.
            let settle = options.quick ? 0.3 : 5
            var withExample: [IdleMemory] = []
            var empty: [IdleMemory] = []
            for round in run.rounds {
                withExample.append(
                    try IdleMemoryBench.daemon(
                        config: example, settle: settle, root: run.root, name: "idle-example-r\(round)",
                        widgetd: run.widgetd))
                empty.append(
                    try IdleMemoryBench.daemon(
                        config: nil, settle: settle, root: run.root, name: "idle-empty-r\(round)",
                        widgetd: run.widgetd))
            }
            let i3blocks = try? IdleMemoryBench.i3blocks(settle: settle, root: run.root, name: "idle-i3blocks")
            return RowResult(
                [
                    Figure(withExample.map { Double($0.residentKilobytes) / 1024 }, "MB", limit: 10),
                    Figure(empty.map { Double($0.residentKilobytes) / 1024 }, "MB", limit: 8),
                ],
                i3blocks: i3blocks.map { "\(Format.kB(Double($0.residentKilobytes))) (the example's 7 as blocks)" },
                note: "VmRSS \(Format.number(settle)) s after every timeline is in; anonymous "
                    + Figure(withExample.map { Double($0.anonymousKilobytes) / 1024 }, "MB").text + " / "
                    + Figure(empty.map { Double($0.anonymousKilobytes) / 1024 }, "MB").text + "; peak "
                    + Figure(withExample.map { Double($0.peakKilobytes) / 1024 }, "MB").text + " / "
                    + Figure(empty.map { Double($0.peakKilobytes) / 1024 }, "MB").text + "; example: \(example)")
        },
        Row(
            id: .instanceMemory, title: "memory per instance, N = \(Format.count(huge)) mixed kinds",
            goal: "≤ 1 kB"
        ) { run in
            let base = try run.startups(3, check: false)
            let many = try run.startups(huge, check: true)
            let per = zip(base, many).map { Double($1.peakKilobytes - $0.peakKilobytes) / Double(huge - 3) }
            let anonymous = zip(base, many).map {
                Double($1.anonymousKilobytes - $0.anonymousKilobytes) / Double(huge - 3)
            }
            return RowResult(
                [Figure(per, "kB", limit: 1)],
                note:
                    "(peak RSS at N = \(Format.count(huge)) − at N = 3, one of each kind) / \(Format.count(huge - 3)); motivations, quotes and "
                    + "per-minute clocks in turn; anonymous memory alone: \(Figure(anonymous, "kB").text)")
        },
        Row(id: .reload, title: "reload N = 1, FIFO → file renamed, p50 / p99", goal: "≤ 0.2 / ≤ 1 ms") { run in
            var summaries: [Summary] = []
            var floors: [Summary] = []
            for round in run.rounds {
                summaries.append(
                    try RequestBench.latency(
                        .reload, count: 1, samples: options.sampleCount, root: run.root, name: "reload-1-r\(round)",
                        widgetd: run.widgetd))
                // In turn with the daemon's round, so both see the same load.
                floors.append(
                    try ReloadFloorBench.run(
                        samples: options.sampleCount, root: run.root, name: "reload-floor-r\(round)"))
            }
            var i3blocks: String?
            if let theirs = try? I3blocksReloadBench.run(
                samples: options.sampleCount, root: run.root, name: "reload-i3blocks")
            {
                i3blocks = "\(Format.ms(theirs.median)) / \(Format.ms(theirs.p99)) (signal → status line)"
            }
            return RowResult(
                [
                    Figure(summaries.map { $0.median * 1000 }, "ms", limit: 0.2),
                    Figure(summaries.map { $0.p99 * 1000 }, "ms", limit: 1),
                ],
                i3blocks: i3blocks,
                note:
                    "`reload q0` on a quotes widget, written to the FIFO → `q0.plain` renamed; \(options.sampleCount) "
                    + "per round; floor, measured the same way in each round (a bare process: poll, read the line, "
                    + "create, write and rename the file): "
                    + "\(Figure(floors.map { $0.median * 1000 }, "ms").text) / \(Figure(floors.map { $0.p99 * 1000 }, "ms").text); "
                    + "i3blocks: `signal=1` on a `date +%s%N` block, SIGRTMIN+1 → the next line on stdout")
        },
        Row(id: .check, title: "`check` of \(Format.count(huge)) widgets", goal: "≤ 100 ms") { run in
            let results = try run.startups(huge, check: true)
            return RowResult(
                [Figure(results.compactMap { $0.check?.median }.map { $0 * 1000 }, "ms", limit: 100)],
                note: "`widgetd check` wall time, p50 of \(options.quick ? 1 : 5) per round, the start-up mix")
        },
        Row(
            id: .placeholders, title: "start → \(Format.count(huge)) placeholders written",
            goal: "≤ 300 ms"
        ) { run in
            let results = try run.startups(huge, check: true)
            return RowResult(
                [Figure(results.map { $0.painted * 1000 }, "ms", limit: 300)],
                note: "daemon spawned → every `<name>.plain` landed (linked in or renamed); every first timeline in: "
                    + Figure(results.map { $0.timelines * 1000 }, "ms").text)
        },
        Row(id: .swiftTest, title: "`swift test` wall time, 2 cores", goal: "≤ 25 s") { run in
            guard let log = options.swiftTestLog else {
                return .missing("see .ci/run, which prints it (or pass its log with --swift-test-log)")
            }
            guard let seconds = swiftTestSeconds(log) else {
                return .missing("no \"swift test: N s wall time\" line in \(log)")
            }
            return RowResult(
                [Figure([seconds], "s", limit: 25)], note: "read from \(log) (.ci/run's line), not measured here")
        },
        Row(id: .cron, title: "cron next dates, `\(CronBench.expression)` in \(CronBench.zone)", goal: "") { run in
            let count = options.quick ? 1000 : 10_000  // the most `widgetd cron` prints
            var values: [Double] = []
            for _ in run.rounds {
                values.append(try CronBench.run(count: count, root: run.root, widgetd: run.widgetd))
            }
            return RowResult(
                [Figure(values, "µs / date")],
                note: "`widgetd cron … --count \(count)` less `--count 1`, per date (the search and the printing)")
        },
        Row(id: .render, title: "renderer: \(large / 10) clocks × 6 formats", goal: "") { run in
            let formats = ["plain", "i3bar", "i3blocks", "waybar", "polybar", "tmux"]
            var results: [SwapResult] = []
            for round in run.rounds {
                results.append(
                    try SwapBench.run(
                        count: large / 10, seconds: options.windowSeconds, settle: options.settle, root: run.root,
                        name: "render-r\(round)", widgetd: run.widgetd, formats: formats))
            }
            return RowResult(
                [Figure(results.map { $0.cpuPerThousand * 1000 }, "ms / 1000 files")],
                note: "daemon CPU per 1000 files written when every swap renders 6 formats (render + atomic write); "
                    + "compare the swap cost rows, one plain file per swap")
        },
    ]
}

/// i3blocks' CPU per 1000 updates for N clocks, or why it is missing.
private func i3blocksCost(_ run: BenchRun, _ variant: I3blocksResult.Variant, count: Int) -> String {
    do {
        let result = try run.i3blocks(variant, count: count)
        return "\(Format.number(result.cpuPerThousand * 1000)) ms / 1000 updates"
    } catch {
        return "failed: \(error)"
    }
}

/// `.ci/run`'s "swift test: N s wall time" line.
private func swiftTestSeconds(_ path: String) -> Double? {
    guard let text = Proc.read(path) else { return nil }
    for line in text.split(separator: "\n").reversed() where line.hasPrefix("swift test: ") {
        return Double(line.dropFirst("swift test: ".count).split(separator: " ").first ?? "")
    }
    return nil
}
