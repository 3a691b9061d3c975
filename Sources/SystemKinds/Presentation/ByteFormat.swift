import FoundationEssentials

/// Byte counts as i3status writes them: `3.4 GiB`, the largest unit the value reaches, or a fixed one.
public struct ByteFormat: Sendable, Hashable {
    /// i3status's `prefix_type`.
    public enum Prefixes: String, Sendable, CaseIterable {
        /// Ki, Mi, Gi, Ti: powers of 1024 (i3status's default, and `free -h`'s).
        case binary
        /// k, M, G, T: powers of 1000, as disk makers count.
        case decimal
        /// K, M, G, T: powers of 1024, as `df -h` writes them.
        case custom

        var base: Double { self == .decimal ? 1000 : 1024 }

        var symbols: [String] {
            switch self {
            case .binary: ["", "Ki", "Mi", "Gi", "Ti"]
            case .decimal: ["", "k", "M", "G", "T"]
            case .custom: ["", "K", "M", "G", "T"]
            }
        }
    }

    public var prefixes: Prefixes
    /// The prefix to write every value in (`Gi`); nil: the largest each value reaches (i3status's `unit: auto`).
    public var unit: String?
    public var decimals: Int

    public init(prefixes: Prefixes = .binary, unit: String? = nil, decimals: Int = 1) {
        self.prefixes = prefixes
        self.unit = unit
        self.decimals = decimals
    }

    public func format(_ bytes: UInt64) -> String {
        var value = Double(bytes)
        var exponent = 0
        let symbols = prefixes.symbols
        while exponent < symbols.count - 1 {
            if let unit, symbols[exponent] == unit { break }
            if unit == nil, value < prefixes.base { break }
            value /= prefixes.base
            exponent += 1
        }
        return Self.fixed(value, decimals: decimals) + " " + symbols[exponent] + "B"
    }

    /// `value` with `decimals` digits after the point, rounded half away from zero as printf's `%.*f` is for the
    /// values shown here (no exact ties in binary). A value that is no number, or too large to write whole (the
    /// system's numbers are not to be trusted: a driver's, a FUSE file system's), is `?`.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "?" }
        let decimals = max(0, min(decimals, 6))
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        let whole = UInt64(scaled / scale)
        let fraction = UInt64(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    /// A percentage as i3status writes one: one decimal and `%` (`42.3%`).
    public static func percent(_ value: Double) -> String {
        fixed(value, decimals: 1) + "%"
    }
}
