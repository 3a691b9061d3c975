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

/// What the benchmark prints as it runs: one line per figure, under section headings. The table of the timing rows and
/// the system bar's rows comes at the end (`Table`).
final class Report {
    func section(_ title: String) {
        print("\n## \(title)")
        flush()
    }

    /// A figure line: `name  value  (detail)`.
    func figure(_ name: String, _ value: String, _ detail: String = "") {
        print("\(Format.pad(name, 44)) \(Format.pad(value, 24))\(detail.isEmpty ? "" : " " + detail)")
        flush()
    }

    func note(_ text: String) {
        print("   \(text)")
        flush()
    }

    private func flush() {
        fflush(nil)
    }
}
