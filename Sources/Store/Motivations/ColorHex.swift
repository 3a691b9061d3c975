/// The colour notation the store accepts: `#` and 3, 6 or 8 hexadecimal digits (`#RGB`, `#RRGGBB`, `#RRGGBBAA`).
///
/// The store keeps colours as text, as the seed's `backgroundColorHex` does; turning them into a colour is the
/// renderer's job. This check only keeps text no renderer could read out of the file.
public enum ColorHex {
    /// Whether `text` is `#RGB`, `#RRGGBB` or `#RRGGBBAA`, digits in either case.
    public static func isValid(_ text: String) -> Bool {
        guard text.first == "#" else { return false }
        let digits = text.utf8.dropFirst()
        return [3, 6, 8].contains(digits.count) && digits.allSatisfy(isHexDigit)
    }

    /// ASCII only: `Character.isHexDigit` would also take full-width digits, which no renderer reads.
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
