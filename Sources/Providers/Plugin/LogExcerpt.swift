/// A short, printable excerpt of a bad line, for the log.
enum LogExcerpt {
    static func of(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(80), as: UTF8.self)
        let printable = String(text.unicodeScalars.map { $0.value < 0x20 ? "?" : Character($0) })
        return bytes.count > 80 ? "'\(printable)…'" : "'\(printable)'"
    }
}
