import Foundation

/// The system bar's rows: the system kinds' bar beside i3status and i3blocks, and i3status's default config beside its
/// import. Each round runs every program for the same window, in turn, so all see the same load.
func issue36Rows(_ options: Options) -> [Row] {
    let seconds = options.systemSeconds
    let window = Format.number(seconds)
    return [
        Row(
            id: .systemBar, title: "bar of the system kinds, CPU per minute",
            goal: "≤ 1× i3status's (aim ≤ 0.5×), 0 forks"
        ) { run in
            var ours: [StatusProgramCost] = []
            var theirs: [StatusProgramCost] = []
            var blocks: [StatusProgramCost] = []
            let sound = try SystemBarBench.SoundServer(root: run.root)
            for round in run.rounds {
                ours.append(
                    try SystemBarBench.widgetd(
                        config: SystemBarBench.widgetsConfig, barArguments: ["--bar", "system"],
                        timelines: SystemBarBench.widgets.count, seconds: seconds, settle: options.settle,
                        root: run.root,
                        name: "system-widgetd-r\(round)", widgetd: run.widgetd, environment: sound.environment))
                theirs.append(
                    try SystemBarBench.i3status(
                        config: SystemBarBench.i3statusGeneral + SystemBarBench.i3statusModules, seconds: seconds,
                        settle: options.settle,
                        root: run.root, name: "system-i3status-r\(round)", environment: sound.environment))
                if let cost = try? SystemBarBench.i3blocks(
                    commands: SystemBarBench.i3blocksCommands, seconds: seconds, settle: options.settle, root: run.root,
                    name: "system-i3blocks-r\(round)", environment: sound.environment)
                {
                    blocks.append(cost)
                }
            }
            let pushed = try SystemBarBench.pushedWakeups(
                seconds: seconds, settle: options.settle, root: run.root, name: "system-pushed", widgetd: run.widgetd,
                environment: sound.environment)
            var result = comparison(ours, theirs, i3blocks: blocks, window: window, what: "the same eight blocks")
            result.note! +=
                "; the pushed kinds alone (battery, network, sound, music), nothing changing: \(pushed) daemon wake-ups in "
                + "\(window) s"
            return result
        },
        Row(
            id: .i3statusDefault, title: "i3status's default config: its import, CPU per minute",
            goal: ""
        ) { run in
            guard let config = Proc.read("/etc/i3status.conf") else {
                return .missing("no /etc/i3status.conf (i3status is not installed)")
            }
            var ours: [StatusProgramCost] = []
            var theirs: [StatusProgramCost] = []
            let importPath = run.root + "/default-import.yaml"
            let status = try Child.run(
                [run.widgetd, "import", "i3status", "/etc/i3status.conf"], environment: [:], stdout: .file(importPath)
            ).status
            guard status == 0, let imported = Proc.read(importPath) else {
                return .missing("`widgetd import i3status /etc/i3status.conf` failed (exit status \(status))")
            }
            // Every widget of the import is on its bar: one `    - name` line each.
            let shown = imported.split(separator: "\n").filter { $0.hasPrefix("    - ") }.count
            for round in run.rounds {
                ours.append(
                    try SystemBarBench.widgetd(
                        config: imported, barArguments: ["--bar", "i3status"], timelines: shown, seconds: seconds,
                        settle: options.settle,
                        root: run.root, name: "default-widgetd-r\(round)", widgetd: run.widgetd))
                theirs.append(
                    try SystemBarBench.i3status(
                        config: config.replacingOccurrences(
                            of: "general {", with: "general {\n output_format = \"i3bar\""),
                        seconds: seconds, settle: options.settle, root: run.root, name: "default-i3status-r\(round)"))
            }
            return comparison(
                ours, theirs, i3blocks: [], window: window,
                what: "/etc/i3status.conf and `widgetd import i3status` of it (its clock shows seconds: one entry a "
                    + "second in widgetd, a line every 5 s in i3status)", goal: false)
        },
    ]
}

/// widgetd's CPU per minute against i3status's, round by round, with forks and wake-ups beside.
private func comparison(
    _ ours: [StatusProgramCost], _ theirs: [StatusProgramCost], i3blocks: [StatusProgramCost], window: String,
    what: String, goal: Bool = true
) -> RowResult {
    // A window in which i3status ran nothing (a quick run) has no ratio: infinite, left out of the figure.
    let ratios = zip(ours, theirs).map { $0.cpuPerMinute / $1.cpuPerMinute }
    let ratio = Figure(ratios, "× i3status", limit: goal ? 1 : nil)
    let cpu = Figure(ours.map { $0.cpuPerMinute * 1000 }, "ms/min")
    let i3status = Figure(theirs.map { $0.cpuPerMinute * 1000 }, "ms/min")
    let forks = ours.compactMap(\.forks).map(Double.init)
    let theirForks = theirs.compactMap(\.forks).map(Double.init)
    let blocks = Figure(i3blocks.map { $0.cpuPerMinute * 1000 }, "ms/min")
    let blockForks = i3blocks.compactMap(\.forks).map(Double.init)
    let forkText = forks.isEmpty ? "forks n/a (the proc connector needs root)" : "forks \(Figure(forks, "").text)"
    return RowResult(
        [ratio], met: goal ? (ratio.met ?? false) && forks.allSatisfy { $0 == 0 } : nil,
        i3blocks: i3blocks.isEmpty
            ? nil : "\(blocks.text) (\(Figure(blockForks, "forks").text) per \(window) s window)",
        beside: "widgetd \(cpu.text), i3status \(i3status.text); \(forkText)",
        note: "\(what); daemon + `widgetd bar` (own + children CPU, schedstat) against i3status's, per round, over "
            + "\(window) s windows; widgetd \(cpu.text) (daemon wake-ups "
            + "\(Figure(ours.map(\.wakeupsPerMinute), "/min").text), \(Figure(ours.map { Double($0.lines) }, "lines").text) "
            + "per window), i3status \(i3status.text) (wake-ups \(Figure(theirs.map(\.wakeupsPerMinute), "/min").text), "
            + "forks \(Figure(theirForks, "").text)); processes started counted by the kernel's proc connector")
}
