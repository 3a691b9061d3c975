import Foundation

/// Order statistics of a sample.
struct Summary {
    let sorted: [Double]

    init(_ values: [Double]) {
        sorted = values.sorted()
    }

    var count: Int { sorted.count }
    var isEmpty: Bool { sorted.isEmpty }

    /// The nearest-rank percentile (p in 0…100).
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }

    var median: Double { percentile(50) }
    var p99: Double { percentile(99) }
    var max: Double { sorted.last ?? .nan }
    var min: Double { sorted.first ?? .nan }
}

/// Number formatting: durations in ms or µs, sizes in kB or MB.
enum Format {
    static func number(_ value: Double, _ digits: Int = 3) -> String {
        guard value.isFinite else { return "n/a" }
        if value == 0 { return "0" }
        // `digits` significant figures, without exponent notation.
        let magnitude = Int(log10(abs(value)).rounded(.down))
        let decimals = Swift.max(0, digits - 1 - magnitude)
        return String(format: "%.\(decimals)f", value)
    }

    /// A count with thousands separated, as the issue writes them: 10,000.
    static func count(_ value: Int) -> String {
        let digits = String(value)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 && value >= 10_000 { grouped.append(",") }
            grouped.append(digit)
        }
        return grouped
    }

    static func ms(_ seconds: Double) -> String { number(seconds * 1000) + " ms" }

    static func kB(_ kilobytes: Double) -> String {
        kilobytes >= 10_000 ? number(kilobytes / 1024) + " MB" : number(kilobytes) + " kB"
    }

    static func ratio(_ value: Double) -> String { number(value) + "×" }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// What the benchmark prints: one line per figure, with the goal it is held to and whether it is met.
final class Report {
    struct Goal {
        var figure: String
        var goal: String
        var measured: String
        var met: Bool
    }

    private(set) var goals: [Goal] = []
    /// Figures by key, for ratios computed later in the run and for the summary table.
    var values: [String: Double] = [:]

    func section(_ title: String) {
        print("\n## \(title)")
        flush()
    }

    /// A figure line: `name  value  (detail)`.
    func figure(_ name: String, _ value: String, _ detail: String = "") {
        print("\(Format.pad(name, 44)) \(Format.pad(value, 24))\(detail.isEmpty ? "" : " " + detail)")
        flush()
    }

    /// A figure line held to a goal; the goal is recorded for the summary.
    func goal(_ name: String, _ value: String, goal: String, met: Bool, _ detail: String = "") {
        goals.append(Goal(figure: name, goal: goal, measured: value, met: met))
        figure(name, value, "[goal \(goal): \(met ? "met" : "MISSED")]\(detail.isEmpty ? "" : " " + detail)")
    }

    func note(_ text: String) {
        print("   \(text)")
        flush()
    }

    func summary() {
        section("Goals (issue 6)")
        guard !goals.isEmpty else {
            note("no goal was measured in this run")
            return
        }
        for goal in goals {
            print(
                "\(goal.met ? "met   " : "MISSED") \(Format.pad(goal.figure, 44)) \(Format.pad(goal.measured, 24)) goal \(goal.goal)"
            )
        }
        let met = goals.filter(\.met).count
        print("\(met) of \(goals.count) goals met")
        flush()
    }

    private func flush() {
        fflush(nil)
    }
}
