import FoundationEssentials
import Glibc
import Store
import Timelines

/// A record's colour hex: the forms the store accepts (`#RGB`, `#RRGGBB`, `#RRGGBBAA`) as written, and anything
/// else (an older or foreign writer's value) read the way the seed's `Color(hex:)` reads it, so a bad value falls
/// back the same way: anything but six hex digits (after dropping every non-alphanumeric character) is white, and
/// six characters that are not all hex digits give the value of their leading hex digits, as `Scanner` does.
enum SeedColor {
    static func from(hex: String) -> Color {
        if ColorHex.isValid(hex), let color = Color(hex: hex) { return color }
        let cleaned = String(
            hex.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil })
        guard cleaned.count == 6 else { return Color(red: 255, green: 255, blue: 255) }
        var value: UInt64 = 0
        for character in cleaned {
            guard let digit = character.hexDigitValue, character.isASCII else { break }
            value = value << 4 | UInt64(digit)
        }
        return Color(
            red: UInt8((value >> 16) & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// Black or white, whichever reads better on `background` (WCAG relative luminance).
    static func foreground(on background: Color) -> Color {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.039_28 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        let luminance =
            0.2126 * linear(background.red) + 0.7152 * linear(background.green) + 0.0722 * linear(background.blue)
        return luminance > 0.179 ? Color(red: 0, green: 0, blue: 0) : Color(red: 255, green: 255, blue: 255)
    }
}
