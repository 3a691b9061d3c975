import Foundation

/// One run of the benchmark: its options, the binary, its tmpfs directory, and the measurements several rows share
/// (the swap runs feed the swap cost, first-file, burst and memory-per-clock rows), each taken once, on first use.
final class BenchRun {
    let options: Options
    let widgetd: String
    let root: String
    let exampleConfig: String?
    /// Printed as the rows run: each round's detail.
    let report = Report()

    private var swapRounds: [Int: [SwapResult]] = [:]
    private var floorRounds: [FloorResult]?
    private var swapFloorRounds: [Double]?
    /// The pages the swap floor's process touched in one wake, per round (nil where unknown).
    private(set) var swapFloorPages: [Int?] = []
    private var startupRounds: [Int: [StartupResult]] = [:]
    /// i3blocks runs shared between rows, by a key naming the variant and N.
    private var i3blocksRuns: [String: Result<I3blocksResult, Error>] = [:]
    private(set) var ticker: String??

    init(options: Options, widgetd: String, root: String, exampleConfig: String?) {
        self.options = options
        self.widgetd = widgetd
        self.root = root
        self.exampleConfig = exampleConfig
    }

    var rounds: Range<Int> { 0..<options.roundCount }

    /// N per-second clocks, one window per round. At N = 10, when the swap-10 row runs, each round is followed by a
    /// round of its floor (`swapFloors`), so that each daemon figure has a floor taken under the same conditions.
    func swaps(_ count: Int) throws -> [SwapResult] {
        if let cached = swapRounds[count] { return cached }
        let pairedWithFloor = count == 10 && options.rows.contains(.swap10) && swapFloorRounds == nil
        var results: [SwapResult] = []
        var floors: [Double] = []
        for round in rounds {
            let result = try SwapBench.run(
                count: count, seconds: options.windowSeconds, settle: options.settle, root: root,
                name: "swap-\(count)-r\(round)", widgetd: widgetd, countPages: count == 10 && !options.quick)
            report.figure(
                "swap N=\(count) round \(round + 1)", "\(Format.ms(result.cpuPerThousand)) CPU/1000 swaps",
                "(\(result.swaps) swaps; first file p50 \(Format.ms(result.first.median)); burst p50 "
                    + "\(Format.ms(result.burst.median)); peak RSS \(Format.kB(Double(result.peakKilobytes)))"
                    + (result.pagesPerWake.map { "; \($0) pages touched in a wake" } ?? "") + ")")
            results.append(result)
            if pairedWithFloor { floors.append(try swapFloor(round: round)) }
        }
        swapRounds[count] = results
        if pairedWithFloor { swapFloorRounds = floors }
        return results
    }

    /// The swap floor at N = 10 (`SwapFloorBench`), one window per round: CPU per 1000 swaps, in seconds. Taken
    /// between the daemon's rounds when `swaps(10)` ran for the swap-10 row.
    func swapFloors() throws -> [Double] {
        if let swapFloorRounds { return swapFloorRounds }
        let results = try rounds.map { try swapFloor(round: $0) }
        swapFloorRounds = results
        return results
    }

    private func swapFloor(round: Int) throws -> Double {
        // A smoke run's floor starts its window soon after the next second: the bare process has no start-up writes
        // to let pass, and the test suite waits for it.
        let (result, pages) = try SwapFloorBench.run(
            count: 10, seconds: options.windowSeconds, settle: options.quick ? 0.3 : options.settle, root: root,
            name: "swap-floor-r\(round)", countPages: !options.quick)
        swapFloorPages.append(pages)
        report.figure(
            "swap floor N=10 round \(round + 1)", "\(Format.ms(result)) CPU/1000 swaps",
            "(a bare process: the daemon's four calls per file, one wake a second; "
                + "\(pages.map { "\($0) pages touched in a wake" } ?? "pages touched not known"))")
        return result
    }

    /// The kernel's floor for a burst of `options.large` atomic replacements, one figure per round.
    func floors() throws -> [FloorResult] {
        if let floorRounds { return floorRounds }
        var results: [FloorResult] = []
        for round in rounds {
            let result = try FloorBench.run(
                count: options.large, rounds: options.quick ? 3 : 20, root: root, name: "floor-r\(round)")
            report.figure(
                "kernel floor, \(options.large) files, round \(round + 1)", Format.ms(result.total.median),
                "(open+write+close \(Format.ms(result.create.median)), rename \(Format.ms(result.rename.median)))")
            results.append(result)
        }
        floorRounds = results
        return results
    }

    /// The start-up mix of `count` widgets, one daemon per round; `check` is timed in each round when asked. The
    /// 10,000-widget rows all ask for it, so that their start-ups are run once.
    func startups(_ count: Int, check: Bool) throws -> [StartupResult] {
        if let cached = startupRounds[count], !check || cached.allSatisfy({ $0.check != nil }) { return cached }
        var results: [StartupResult] = []
        for round in rounds {
            let result = try StartupBench.run(
                count: count, checkRuns: check ? (options.quick ? 1 : 5) : 0, root: root,
                name: "startup-\(count)-r\(round)", widgetd: widgetd)
            report.figure(
                "start-up N=\(count) round \(round + 1)",
                "placeholders \(Format.ms(result.painted))",
                "(timelines \(Format.ms(result.timelines)); peak RSS \(Format.kB(Double(result.peakKilobytes)))"
                    + (result.check.map { "; check p50 \(Format.ms($0.median))" } ?? "") + ")")
            results.append(result)
        }
        startupRounds[count] = results
        return results
    }

    /// The fork-free persist program, compiled once (nil without a C compiler).
    func tickerBinary() -> String? {
        if let ticker { return ticker }
        let built = I3blocksBench.buildTicker(root: root)
        ticker = .some(built)
        return built
    }

    /// i3blocks with N clocks of a variant for one window: once per run, shared by the rows that show it.
    func i3blocks(_ variant: I3blocksResult.Variant, count: Int) throws -> I3blocksResult {
        let key = "\(variant.rawValue)-\(count)"
        if let cached = i3blocksRuns[key] { return try cached.get() }
        let result = Result {
            try I3blocksBench.run(
                count: count, variant: variant, seconds: options.windowSeconds, settle: options.settle, root: root,
                ticker: variant == .persistC ? tickerBinary() : nil)
        }
        i3blocksRuns[key] = result
        if case .success(let run) = result {
            report.figure(
                "i3blocks \(variant.rawValue) N=\(count)", "\(Format.ms(run.cpuPerThousand)) CPU/1000 updates",
                "(own \(Format.number(run.ownCPU)) s + children \(Format.number(run.childrenCPU)) s; \(run.updates) "
                    + "of \(Int(Double(count) * options.windowSeconds)) updates delivered)")
        }
        return try result.get()
    }
}
