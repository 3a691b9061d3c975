import Foundation
import TestSupport
import Testing

/// `widgetd-bench --quick` on the built binary: every row of issues 15's and 36's table prints, with a figure, a goal where the
/// issue gives one, and i3blocks beside the rows where it does the same job. No figure is held to a value here:
/// speed is the benchmark's to measure, and a test machine's timings say nothing.
@Suite("widgetd-bench smoke run", .startsFirst)
struct BenchmarkSmokeTests {
    /// The rows, by the start of their title, and whether i3blocks runs beside them.
    static let rows: [(title: String, i3blocks: Bool)] = [
        ("swap cost, N = 10 per-second clocks", true), ("swap cost, N = 100", true),
        ("first file of a second, N = 10", false), ("burst of 100 → all renamed", false),
        ("memory per per-second clock", false), ("CPU for 57 widgets", true), ("release binary", false),
        ("idle RSS, example config / no widgets", true), ("memory per instance, N = 300 mixed kinds", false),
        ("reload N = 1, FIFO → file renamed", true), ("`check` of 300 widgets", false),
        ("start → 300 placeholders written", false), ("`swift test` wall time", false), ("cron next dates", false),
        ("renderer:", false), ("bar of the system kinds", true), ("i3status's default config", false),
    ]

    /// The rows split over four runs side by side, so that the smoke run takes about ten seconds of the suite's wall
    /// time, not thirty; rows that share a measurement stay in one run.
    static let groups = [
        "swap-10,first-file,binary,swift-test,cron,render", "swap-1000,burst,clock-memory", "cpu-57,idle-rss",
        "instance-memory,check,placeholders,reload", "system-bar", "i3status-default",
    ]

    @Test func everyRowPrints() async throws {
        let bench = widgetdBinary.deletingLastPathComponent().appendingPathComponent("widgetd-bench")
        try #require(
            FileManager.default.isExecutableFile(atPath: bench.path), "no widgetd-bench beside \(widgetdBinary.path)")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // .ci/run's line, as the `swift test` row reads it.
        let ciLog = try directory.write("ci.log", "swift test: 42 s wall time, exit status 0\n")
        var runs: [(process: Process, end: ProcessEnd, out: String, err: String)] = []
        for (index, rows) in Self.groups.enumerated() {
            let outPath = try directory.write("stdout-\(index)", "")
            let errPath = try directory.write("stderr-\(index)", "")
            let process = Process()
            process.executableURL = bench
            process.arguments = [
                "--quick", "--no-build", "--binary", widgetdBinary.path, "--swift-test-log", ciLog, "--only", rows,
            ]
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
            process.standardOutput = output
            let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            let end = ProcessEnd(of: process)
            try process.run(thenClosing: output, errors)
            runs.append((process, end, outPath, errPath))
        }
        var table: [Substring] = []
        var outputs = ""
        for run in runs {
            await run.end.wait()
            let output = try String(contentsOfFile: run.out, encoding: .utf8)
            let errors = try String(contentsOfFile: run.err, encoding: .utf8)
            #expect(run.process.terminationStatus == 0, "\(errors)\n\(output)")
            #expect(output.contains("load:") && output.contains("at start") && output.contains("at end"))
            #expect(output.contains("binary:   \(widgetdBinary.path)"))
            #expect(output.contains(" goals met"))
            table += output.split(separator: "\n").filter { $0.hasPrefix("| ") }.dropFirst(2)
            outputs += output
        }
        #expect(table.count == Self.rows.count, "\(outputs)")
        for (title, i3blocks) in Self.rows {
            let line = try #require(table.first { $0.hasPrefix("| " + title) }, "no row \(title) in\n\(outputs)")
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            // "", figure, widgetd, goal, verdict, i3blocks, ""
            try #require(cells.count == 7, "\(line)")
            #expect(!cells[2].isEmpty && cells[2] != "n/a", "no figure: \(line)")
            if !cells[3].isEmpty { #expect(cells[4] == "met" || cells[4] == "MISSED", "no verdict: \(line)") }
            if i3blocks {
                #expect(!cells[5].isEmpty && !cells[5].contains("failed"), "no i3blocks figure: \(line)")
            }
        }
        #expect(table.contains { $0.hasPrefix("| `swift test` wall time") && $0.contains("42.0 s") })
        // The swap cost beside its floor: the bare process's four calls per file, measured in the same run.
        #expect(
            table.contains {
                $0.hasPrefix("| swap cost, N = 10") && $0.contains("; the kernel floor ") && $0.contains(" ms / 1000")
            }, "\(outputs)")
        #expect(outputs.contains("swap floor N=10 round 1"), "\(outputs)")
    }
}
