import Foundation

/// A screenshot as RGB pixels, read from a binary PPM (`import -window root ppm:-`, `grim -t ppm`), with the few
/// questions the real-bar tests ask of it: where a colour is, and how many pixels in a region stand out from a
/// background.
struct Screenshot: Equatable {
    let width: Int
    let height: Int
    /// Row-major RGB triples.
    let pixels: [UInt8]

    struct RGB: Equatable, CustomStringConvertible {
        var red: Int
        var green: Int
        var blue: Int

        init(_ hex: String) {
            let value = Int(hex.dropFirst(), radix: 16) ?? 0
            red = value >> 16 & 0xFF
            green = value >> 8 & 0xFF
            blue = value & 0xFF
        }

        init(red: Int, green: Int, blue: Int) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// Euclidean distance in RGB, 0 to about 441.
        func distance(to other: RGB) -> Double {
            let (r, g, b) = (red - other.red, green - other.green, blue - other.blue)
            return Double(r * r + g * g + b * b).squareRoot()
        }

        var description: String { String(format: "#%02x%02x%02x", red, green, blue) }
    }

    struct Region: Equatable, CustomStringConvertible {
        var minX: Int
        var minY: Int
        var maxX: Int
        var maxY: Int
        var midX: Int { (minX + maxX) / 2 }
        var midY: Int { (minY + maxY) / 2 }
        var width: Int { maxX - minX + 1 }
        var description: String { "\(width)x\(maxY - minY + 1)+\(minX)+\(minY)" }

        func inset(by pixels: Int) -> Region {
            Region(minX: minX + pixels, minY: minY + pixels, maxX: maxX - pixels, maxY: maxY - pixels)
        }
    }

    /// Parses a binary PPM (`P6`, maxval 255); nil for anything else.
    init?(ppm data: Data) {
        let bytes = [UInt8](data)
        var index = 0
        var fields: [Int] = []
        var magic = ""
        // Header: P6, width, height, maxval, separated by whitespace, with `#` comments; one whitespace byte after.
        while fields.count < 3 || magic.isEmpty {
            while index < bytes.count, bytes[index] == UInt8(ascii: "#") || isspace(Int32(bytes[index])) != 0 {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                }
                index += 1
            }
            let start = index
            while index < bytes.count, isspace(Int32(bytes[index])) == 0 { index += 1 }
            guard start < index else { return nil }
            let token = String(decoding: bytes[start..<index], as: UTF8.self)
            if magic.isEmpty {
                guard token == "P6" else { return nil }
                magic = token
            } else {
                guard let value = Int(token) else { return nil }
                fields.append(value)
            }
        }
        index += 1
        guard fields[2] == 255, bytes.count - index >= fields[0] * fields[1] * 3 else { return nil }
        width = fields[0]
        height = fields[1]
        pixels = Array(bytes[index..<(index + width * height * 3)])
    }

    func pixel(_ x: Int, _ y: Int) -> RGB {
        let offset = (y * width + x) * 3
        return RGB(red: Int(pixels[offset]), green: Int(pixels[offset + 1]), blue: Int(pixels[offset + 2]))
    }

    /// The smallest region holding every pixel of `within` that is within `tolerance` of `color`; nil when none is.
    func bounds(of color: RGB, tolerance: Double = 8, within area: Region) -> Region? {
        var found: Region?
        for y in max(area.minY, 0)...min(area.maxY, height - 1) {
            for x in max(area.minX, 0)...min(area.maxX, width - 1) where pixel(x, y).distance(to: color) <= tolerance {
                if var region = found {
                    region.minX = min(region.minX, x)
                    region.maxX = max(region.maxX, x)
                    region.minY = min(region.minY, y)
                    region.maxY = max(region.maxY, y)
                    found = region
                } else {
                    found = Region(minX: x, minY: y, maxX: x, maxY: y)
                }
            }
        }
        return found
    }

    /// How many pixels of `area` are more than `threshold` from `background`: the text drawn on it, if it reads.
    func count(differingFrom background: RGB, by threshold: Double, in area: Region) -> Int {
        var count = 0
        for y in max(area.minY, 0)...min(area.maxY, height - 1) {
            for x in max(area.minX, 0)...min(area.maxX, width - 1)
            where pixel(x, y).distance(to: background) > threshold {
                count += 1
            }
        }
        return count
    }

    /// The brightness (0–255, the mean of red, green and blue) of the brightest pixel of `area`: on a dark bar, the
    /// core of its light text, which a dimmed text draws darker whatever its glyphs.
    func peakBrightness(in area: Region) -> Int {
        var peak = 0
        for y in max(area.minY, 0)...min(area.maxY, height - 1) {
            for x in max(area.minX, 0)...min(area.maxX, width - 1) {
                let rgb = pixel(x, y)
                peak = max(peak, (rgb.red + rgb.green + rgb.blue) / 3)
            }
        }
        return peak
    }

    /// The whole picture as a region.
    var all: Region { Region(minX: 0, minY: 0, maxX: width - 1, maxY: height - 1) }
}
