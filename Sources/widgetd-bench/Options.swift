import Foundation
import Glibc

let usage = """
    usage: widgetd-bench [--only ROWS] [--rounds R] [--quick] [--cpu-window S] [--window S] [--system-window S]
                         [--samples K]
                         [--binary PATH] [--example-config PATH] [--swift-test-log FILE] [--extra SECTIONS]
                         [--no-build] [--keep]

    Runs the widgetd binary as a separate process with its outputs on tmpfs, and prints one line per row of
    its table: the median over R rounds with its spread, the goal, whether it is met, and i3blocks 1.4
    doing the same job in the same run where it can. It asserts nothing.

      --only ROWS          comma-separated row ids (default: all): \(RowID.allCases.map(\.rawValue).joined(separator: ", "))
      --rounds R           rounds per row (default 3, quick 1)
      --quick              a smoke test: small N, 1 s windows, one round (about half a minute); not figures
      --cpu-window S       the 57-widget CPU window in seconds (default 20, quick 1); the issue's figure is for
                           10 minutes, so the row prints the window and the figure scaled to 10 min
      --window S           the swap and i3blocks windows (default 10, quick 1)
      --system-window S    the system bar's windows, each program in turn (default 30, quick 1)
      --samples K          FIFO requests per latency round (default 200, quick 20)
      --binary PATH        the widgetd binary to run (default: widgetd beside this program, built first);
                           --widgetd PATH is the same
      --example-config P   the example config for the idle RSS row (default: config/widgets.yaml in the package)
      --swift-test-log F   a log of .ci/run: the `swift test` row reads its "swift test: N s wall time" line
      --extra SECTIONS     older figures, after the table: lateness, click, idle, bar,
                           pathological, plugin, i3blocks-n (run with --only none to print them alone)
      --no-build           run the widgetd beside this program as it is
      --keep               keep the temporary directory under /dev/shm
    """

/// The command line. Every default is sized so that a full run (all rows, three rounds) ends within 12 minutes on a
/// 2-core machine.
struct Options {
    var quick = false
    var rows: [RowID] = RowID.allCases
    var rounds: Int?
    var cpuWindow: Double?
    var window: Double?
    var systemWindow: Double?
    var samples: Int?
    var binary: String?
    var exampleConfig: String?
    var swiftTestLog: String?
    var extra: Set<String> = []
    var keep = false
    var build = true

    static let extraSections: Set = ["lateness", "click", "idle", "bar", "pathological", "plugin", "i3blocks-n"]

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ flag: String) -> String {
            guard let next = rest.popFirst() else { fail("\(flag) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": options.quick = true
            case "--only":
                let names = value(argument).split(separator: ",").map(String.init)
                if names == ["none"] {
                    options.rows = []
                    continue
                }
                let unknown = names.filter { RowID(rawValue: $0) == nil }
                if !unknown.isEmpty { fail("--only: unknown row \(unknown.joined(separator: ", "))") }
                options.rows = RowID.allCases.filter { names.contains($0.rawValue) }
            case "--rounds": options.rounds = Int(number(value(argument), argument))
            case "--cpu-window": options.cpuWindow = number(value(argument), argument)
            case "--window", "--seconds": options.window = number(value(argument), argument)
            case "--system-window": options.systemWindow = number(value(argument), argument)
            case "--samples": options.samples = Int(number(value(argument), argument))
            case "--binary", "--widgetd": options.binary = value(argument)
            case "--example-config": options.exampleConfig = value(argument)
            case "--swift-test-log": options.swiftTestLog = value(argument)
            case "--extra":
                options.extra = Set(value(argument).split(separator: ",").map(String.init))
                let unknown = options.extra.subtracting(extraSections)
                if !unknown.isEmpty { fail("--extra: unknown section \(unknown.sorted().joined(separator: ", "))") }
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

    var roundCount: Int { max(1, rounds ?? (quick ? 1 : 3)) }
    var cpuSeconds: Double { cpuWindow ?? (quick ? 1 : 20) }
    var windowSeconds: Double { window ?? (quick ? 1 : 10) }
    /// The system bar's windows: six samples at i3status's 5 s interval (quick: a smoke test of two seconds).
    var systemSeconds: Double { systemWindow ?? (quick ? 1 : 30) }
    var sampleCount: Int { samples ?? (quick ? 20 : 200) }
    /// Seconds from the first second boundary after start-up to a window's start: start-up writes are over by then.
    var settle: Double { quick ? 1.3 : 2.3 }

    /// The issue's N = 1000 (swap cost, burst, memory per clock) and N = 10,000 (memory per instance, check,
    /// placeholders); quick mode runs the same code on smaller N, and the rows say which N they measured.
    var large: Int { quick ? 100 : 1000 }
    var huge: Int { quick ? 300 : 10_000 }
}

func number(_ text: String, _ flag: String) -> Double {
    guard let value = Double(text), value > 0 else { fail("\(flag): give a positive number") }
    return value
}

func fail(_ message: String) -> Never {
    complain("widgetd-bench: \(message)\n\(usage)\n")
    exit(64)
}
