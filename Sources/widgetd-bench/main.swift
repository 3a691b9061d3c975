import Foundation
import Glibc

// widgetd-bench: drives the real `widgetd` binary as a separate process, outputs on tmpfs, and prints one line per
// row of its table (Rows.swift, SystemBarRows.swift), with its goal and i3blocks (and for the system bar's rows
// i3status) doing the same job in the same run. It asserts nothing: it measures. Each row's measurement is in a file
// of its own; BenchRun shares the runs several rows use.

// The bare processes under the reload and swap rows (`ReloadFloorBench`, `SwapFloorBench`), started by this benchmark
// itself.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == ReloadFloorBench.echoFlag {
    ReloadFloorBench.echo(fifo: CommandLine.arguments[2], directory: CommandLine.arguments[3])
}
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == SwapFloorBench.tickerFlag,
    let count = Int(CommandLine.arguments[3])
{
    SwapFloorBench.tick(directory: CommandLine.arguments[2], count: count)
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let widgetd = locateWidgetd(options.binary, build: options.build)
var template = Array("/dev/shm/widgetd-bench.XXXXXX".utf8CString)
guard mkdtemp(&template) != nil else { fail("cannot create a directory under /dev/shm") }
let root = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
signal(SIGPIPE, SIG_IGN)

let run = BenchRun(
    options: options, widgetd: widgetd, root: root, exampleConfig: locateExampleConfig(options.exampleConfig))
let started = monotonic()
let binary = BinaryInfo(path: widgetd)
print("# widgetd-bench\(options.quick ? " --quick (a smoke test: small N, short windows; not figures)" : "")")
print("machine:  \(machineDescription())")
print("load:     \(Proc.loadAverage()) (1, 5, 15 min) at start, \(cores) cores")
print(
    "binary:   \(widgetd) (\(Format.number(Double(binary.bytes) / 1_048_576)) MB"
        + "\(binary.stripped == true ? ", stripped" : binary.stripped == false ? ", not stripped" : ""))"
        + (widgetd.contains("/debug/") ? "  a DEBUG build: figures are not the release daemon's" : ""))
print("outputs:  \(root) (tmpfs)")
print(
    "rounds:   \(options.roundCount); windows \(Format.number(options.windowSeconds)) s (swaps, i3blocks), "
        + "\(Format.number(options.cpuSeconds)) s (57-widget CPU); \(options.sampleCount) samples per latency round")

var exitCode: Int32 = 0
var measured: [(row: Row, result: RowResult)] = []
run.report.section("Rounds, as they run")
for row in issue15Rows(options) + issue36Rows(options) where options.rows.contains(row.id) {
    let rowStart = monotonic()
    let result: RowResult
    do {
        result = try row.measure(run)
    } catch {
        result = .missing("failed: \(error)")
        exitCode = 1
    }
    measured.append((row, result))
    run.report.figure(
        "\(row.id.rawValue) (\(Format.number(monotonic() - rowStart, 2)) s)", result.value,
        result.met.map { "[goal \(row.goal): \($0 ? "met" : "MISSED")]" } ?? "")
}

ExtraSections.run(options.extra, run)
if !measured.isEmpty { Table.print(measured, rounds: options.roundCount) }
print("\nload:     \(Proc.loadAverage()) (1, 5, 15 min) at end")
print("took:     \(Format.number(monotonic() - started)) s")
if options.keep {
    print("kept:     \(root)")
} else {
    removeTree(root)
}
exit(exitCode)
