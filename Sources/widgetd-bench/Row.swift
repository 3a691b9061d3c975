import Foundation

/// The rows of the table, in its order: the timing rows (the daemon against its goals and i3blocks), the timing loops
/// moved out of the tests, then the system bar's rows (the system kinds beside i3status). `--only` takes these ids.
enum RowID: String, CaseIterable {
    case swap10 = "swap-10"
    case swap1000 = "swap-1000"
    case firstFile = "first-file"
    case burst
    case clockMemory = "clock-memory"
    case cpu57 = "cpu-57"
    case binary
    case idleRSS = "idle-rss"
    case instanceMemory = "instance-memory"
    case reload
    case check
    case placeholders
    case swiftTest = "swift-test"
    case cron
    case render
    case systemBar = "system-bar"
    case i3statusDefault = "i3status-default"
}

/// One figure of a row, measured once per round, in the unit it is printed in.
struct Figure {
    var values: [Double]
    var unit: String
    /// The goal: the median is at most this (nil: the figure has no goal).
    var limit: Double?

    init(_ values: [Double], _ unit: String, limit: Double? = nil) {
        self.values = values.filter(\.isFinite)
        self.unit = unit
        self.limit = limit
    }

    var summary: Summary { Summary(values) }
    var median: Double { summary.median }
    var met: Bool? { limit.map { median <= $0 } }

    /// `median unit (min–max)`; the spread is left out for a single round.
    var text: String {
        guard !values.isEmpty else { return "n/a" }
        let spread = values.count > 1 ? " (\(Format.number(summary.min))–\(Format.number(summary.max)))" : ""
        return "\(Format.number(median)) \(unit)\(spread)"
    }
}

/// What a row measured: its figures (a row such as `p50 / p99` has two), whether its goal is met, and i3blocks doing
/// the same job in the same run.
struct RowResult {
    var figures: [Figure]
    /// Whether the goal is met; by default every figure with a limit is at or under it. nil: no goal.
    var met: Bool?
    /// i3blocks' figure for the same job, measured in this run; nil where i3blocks does not do this job.
    var i3blocks: String?
    /// Printed under the table: how the figure was taken, and what it is compared with.
    var note: String?
    /// Printed after the figures in the table: what the goal is measured against (a floor, a window).
    var beside: String?

    init(
        _ figures: [Figure], met: Bool? = nil, i3blocks: String? = nil, beside: String? = nil, note: String? = nil
    ) {
        self.figures = figures
        self.beside = beside
        let verdicts = figures.compactMap(\.met)
        self.met = met ?? (verdicts.isEmpty ? nil : verdicts.allSatisfy { $0 })
        self.i3blocks = i3blocks
        self.note = note
    }

    /// A row with no figure measured, and why (an unmet prerequisite, a failure).
    static func missing(_ why: String) -> RowResult {
        var result = RowResult([], note: why)
        result.met = nil
        return result
    }

    var value: String {
        (figures.isEmpty ? "n/a" : figures.map(\.text).joined(separator: " / ")) + (beside.map { "; \($0)" } ?? "")
    }
}

/// A row of the table: what it measures, the issue's goal, and the measurement.
struct Row {
    let id: RowID
    /// The row's name in the table, with the N it was run at.
    let title: String
    let goal: String
    let measure: (BenchRun) throws -> RowResult
}

/// The final table, in Markdown, so that it can be pasted into the README and docs/PERFORMANCE.md as it is.
enum Table {
    static func print(_ rows: [(row: Row, result: RowResult)], rounds: Int) {
        Swift.print("\n## The table (issues 15 and 36): median of \(rounds) round\(rounds == 1 ? "" : "s") (min–max)\n")
        Swift.print("| figure | widgetd | goal | | i3blocks 1.4, same run |")
        Swift.print("| --- | --- | --- | --- | --- |")
        for (row, result) in rows {
            let verdict =
                switch result.met {
                case true?: "met"
                case false?: "MISSED"
                case nil: ""
                }
            let cells = [row.title, result.value, row.goal, verdict, result.i3blocks ?? ""]
            Swift.print(
                "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
        }
        let notes = rows.filter { $0.result.note != nil }
        if !notes.isEmpty { Swift.print("") }
        for (row, result) in notes { Swift.print("- \(row.id.rawValue): \(result.note!)") }
        let held = rows.compactMap(\.result.met)
        Swift.print("\n\(held.filter { $0 }.count) of \(held.count) goals met")
        fflush(nil)
    }
}
