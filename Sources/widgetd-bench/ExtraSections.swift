import Foundation

/// Older figures (lateness, clicks, idle wake-ups, i3blocks at several N; pathological configs; plugins; the bar),
/// run after the table with `--extra`. Each prints its lines as it goes and holds nothing to a goal of the table's.
enum ExtraSections {
    static func run(_ sections: Set<String>, _ run: BenchRun) {
        let report = run.report
        let options = run.options
        func section(_ name: String, _ body: () throws -> Void) {
            do { try body() } catch { report.note("\(name) failed: \(error)") }
        }
        if sections.contains("lateness") {
            report.section("Lateness: second boundary → each `.plain` renamed")
            for count in [10, options.large] {
                section("lateness N=\(count)") {
                    let result = try run.swaps(count)[0]
                    report.figure(
                        "lateness N=\(count) p50/p99/max",
                        "\(Format.ms(result.lateness.median)) / \(Format.ms(result.lateness.p99)) / "
                            + Format.ms(result.lateness.max))
                }
            }
            section("staggered") {
                let result = try StaggeredBench.run(
                    count: options.large, seconds: options.windowSeconds, root: run.root, widgetd: run.widgetd)
                report.figure(
                    "lateness N=\(options.large) staggered p50/p99/max",
                    "\(Format.ms(result.lateness.median)) / \(Format.ms(result.lateness.p99)) / "
                        + Format.ms(result.lateness.max),
                    "(exec timelines, entries 1/N s apart: each due alone; \(result.swaps) swaps)")
            }
        }
        if sections.contains("click") {
            report.section("FIFO clicks → file renamed, \(options.sampleCount) each")
            for count in [1, options.large] {
                section("click N=\(count)") {
                    let summary = try RequestBench.latency(
                        .click, count: count, samples: options.sampleCount, root: run.root, widgetd: run.widgetd)
                    report.figure(
                        "click N=\(count) p50/p99", "\(Format.ms(summary.median)) / \(Format.ms(summary.p99))",
                        "(click NAME 1 on a motivations widget; max \(Format.ms(summary.max)))")
                }
            }
            section("click kind reload") {
                let samples = options.quick ? 2 : 10
                let summary = try RequestBench.kindReload(
                    count: options.large, samples: samples, root: run.root, widgetd: run.widgetd)
                report.figure(
                    "click on 1 of \(options.large) motivations → all renamed", "\(Format.ms(summary.median)) p50")
            }
        }
        if sections.contains("idle") {
            report.section("Idle: 50 quotes + 50 motivations widgets, nothing due")
            section("idle") {
                let result = try IdleBench.run(
                    seconds: options.quick ? 2 : 20, root: run.root, widgetd: run.widgetd)
                report.figure(
                    "idle wake-ups", "\(Format.number(result.perMinute)) /min",
                    "(\(result.switches) context switches over \(result.threads) threads in "
                        + "\(Format.number(result.seconds)) s; CPU \(Format.ms(result.cpu)))")
            }
        }
        if sections.contains("pathological") {
            report.section("check of pathological configs (bounded output, time linear in the input)")
            section("pathological") {
                for result in try PathologicalConfigBench.run(
                    runs: options.quick ? 1 : 3, root: run.root, widgetd: run.widgetd)
                {
                    report.figure(
                        "check of \(result.name) (\(Format.number(Double(result.bytes) / 1024)) kB)",
                        Format.ms(result.check.median), "(printed \(Format.number(Double(result.printed) / 1024)) kB)")
                }
            }
        }
        if sections.contains("plugin") {
            let reloads = options.quick ? 100 : 1000
            report.section("Timeline reloads one after another: a plugin against exec, \(reloads) each")
            for plugin in [true, false] {
                section(plugin ? "plugin" : "exec") {
                    let result = try PluginBench.run(
                        plugin: plugin, reloads: reloads, root: run.root, widgetd: run.widgetd)
                    report.figure(
                        "CPU per 1000 reloads, \(plugin ? "plugin (one process)" : "exec (fork per reload)")",
                        Format.number(result.cpuSeconds) + " s",
                        "(daemon and children; reload → file p50 \(Format.ms(result.wall.median)), p99 "
                            + "\(Format.ms(result.wall.p99)))")
                }
            }
        }
        if sections.contains("bar") { bar(run) }
        if sections.contains("i3blocks-n") {
            report.section("i3blocks 1.4 with N per-second clocks, every variant, beside widgetd's swaps")
            for count in [10, options.large] {
                for variant in I3blocksResult.Variant.allCases {
                    section("i3blocks \(variant.rawValue) N=\(count)") {
                        let theirs = try run.i3blocks(variant, count: count)
                        let ours = try run.swaps(count)[0]
                        report.figure(
                            "vs i3blocks \(variant.rawValue) N=\(count)",
                            "\(Format.ratio(theirs.cpuPerThousand / ours.cpuPerThousand)) less CPU/update",
                            "(widgetd \(Format.ms(ours.cpuPerThousand)) vs \(Format.ms(theirs.cpuPerThousand)) per 1000)"
                        )
                    }
                }
            }
        }
    }

    /// `widgetd bar` with 50 widgets beside i3blocks with the same 50 clocks: CPU per minute and wake-ups.
    private static func bar(_ run: BenchRun) {
        let report = run.report
        let window = run.options.windowSeconds
        let count = 50
        report.section("widgetd bar with \(count) widgets, \(Format.number(window)) s each, beside i3blocks")
        for ticking in [true, false] {
            let what = ticking ? "\(count) per-second clocks" : "\(count) quotes beside a per-second clock"
            do {
                let result = try BarBench.run(
                    count: count, ticking: ticking, seconds: window, root: run.root, widgetd: run.widgetd)
                report.figure(
                    "bar: \(what)", "\(Format.ms((result.barCPU + result.daemonCPU) * result.perMinute)) CPU/min",
                    "(bar \(Format.ms(result.barCPU * result.perMinute)) + daemon "
                        + "\(Format.ms(result.daemonCPU * result.perMinute)); wake-ups bar "
                        + "\(Format.number(Double(result.barWakeups) * result.perMinute)) /min, daemon "
                        + "\(Format.number(Double(result.daemonWakeups) * result.perMinute)) /min)")
            } catch {
                report.note("bar \(what) failed: \(error)")
            }
        }
        for variant in [I3blocksResult.Variant.command, .persistShell] {
            do {
                let result = try I3blocksBench.run(
                    count: count, variant: variant, seconds: window, root: run.root, ticker: nil)
                let perMinute = 60 / window
                report.figure(
                    "i3blocks \(variant.rawValue): \(count) clocks", "\(Format.ms(result.cpu * perMinute)) CPU/min",
                    "(own \(Format.ms(result.ownCPU * perMinute)) + children "
                        + "\(Format.ms(result.childrenCPU * perMinute)); wake-ups "
                        + "\(Format.number(Double(result.wakeups) * perMinute)) /min)")
            } catch {
                report.note("i3blocks \(variant.rawValue) failed: \(error)")
            }
        }
    }
}
