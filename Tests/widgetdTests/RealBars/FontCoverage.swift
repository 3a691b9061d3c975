import Foundation
import Providers

/// Whether a font has a glyph for each character widgetd writes itself, asked of fontconfig
/// (`fc-list ':family=F:charset=HEX'` lists the family only when its charset holds the code point): a bar draws a box,
/// or with polybar nothing, for a character its configured font lacks.
enum FontCoverage {
    /// Every glyph widgetd writes on its own, beside the user's text: the star's two states and the to-do markers of
    /// the default `symbols: text`, the `…` of a cut text and the `·` before a motivation's timestamp.
    static var widgetdGlyphs: String {
        let symbols = Symbols.text
        return symbols.favorite + symbols.notFavorite + symbols.done + symbols.open + "…·"
    }

    /// The characters of `text` that `family` has no glyph for, as "U+XXXX c"; empty when it draws them all.
    static func missing(in family: String, _ text: String = widgetdGlyphs) throws -> [String] {
        let fcList = try requireExecutable("fc-list", package: "fontconfig")
        return try text.unicodeScalars.filter { !$0.isASCII }.compactMap { scalar in
            let hex = String(scalar.value, radix: 16)
            let found = try runCapturing(
                fcList, [":family=\(family):charset=\(hex)", "family"], environment: [:])
            return found.isEmpty ? "U+\(hex.uppercased()) \(Character(scalar)) in \(family)" : nil
        }
    }
}

extension Screenshot {
    /// How many pixels of `area` differ between this screenshot and `other`: a change drawn there.
    func changedPixels(from other: Screenshot, in area: Region) -> Int {
        var count = 0
        for y in max(area.minY, 0)...min(area.maxY, height - 1, other.height - 1) {
            for x in max(area.minX, 0)...min(area.maxX, width - 1, other.width - 1)
            where pixel(x, y) != other.pixel(x, y) {
                count += 1
            }
        }
        return count
    }
}
