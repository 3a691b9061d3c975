import Foundation

@testable import Formats
@testable import Timelines

/// Any entry in every family and format: the file stays one line per field and escaped for its bar.
///
/// The input is split at 0xFF bytes into text, short text, tooltip, colours, a class and a dimmed range, so the
/// fuzzer reaches every styling field; each part is repaired to text as a provider's output would be.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0xFF, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    func part(_ index: Int) -> String? { index < parts.count ? parts[index] : nil }
    let numbers = Array((part(6) ?? "").utf8)
    let dimmed: [Range<Int>] =
        numbers.count >= 2 ? [Int(numbers[0])..<(Int(numbers[0]) + Int(numbers[1]))] : []
    let content = EntryContent(
        text: part(0) ?? "", shortText: part(1), tooltip: part(2), foreground: part(3).flatMap(Color.init(hex:)),
        background: part(4).flatMap(Color.init(hex:)),
        state: numbers.first.map { $0 % 2 == 0 } == true ? .urgent : .normal,
        classes: part(5).map { [$0] } ?? [], percentage: numbers.last.map(Int.init), dimmedRanges: dimmed)
    for family in Family.allCases {
        for format in OutputFormat.allCases {
            for markup in [false, true] {
                let output = Renderer.render(content, family: family, format: format, instance: "fuzz", markup: markup)
                check(output, format: format, content: content)
            }
        }
    }
    return 0
}

func check(_ output: String, format: OutputFormat, content: EntryContent) {
    guard output.hasSuffix("\n") else {
        fatalError("\(format) output does not end in a newline: \(output.debugDescription)")
    }
    let body = output.dropLast()
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.count <= (format == .i3blocks ? 4 : 1) else {
        fatalError("\(format) output has \(lines.count) lines: \(output.debugDescription)")
    }
    guard !body.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\r" }) || format == .i3blocks else {
        fatalError("\(format) output holds a control character: \(output.debugDescription)")
    }
    switch format {
    case .i3bar, .waybar:
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)), object is [String: Any] else {
            fatalError("\(format) output is not a JSON object: \(output.debugDescription)")
        }
    case .polybar:
        checkPolybarTags(Array(body.utf8), output: output)
    case .tmux:
        checkTmuxStyles(Array(body.utf8), output: output)
    case .plain, .i3blocks:
        break
    }
}

/// Every `%{` is one of the renderer's own colour tags; user text always has a zero-width space after its `%`.
///
/// Checked on bytes, as polybar parses them: on `Character`s a combining mark after a tag's `}` would join it.
func checkPolybarTags(_ bytes: [UInt8], output: String) {
    let percent = UInt8(ascii: "%")
    let open = UInt8(ascii: "{")
    var index = 0
    while index + 1 < bytes.count {
        guard bytes[index] == percent, bytes[index + 1] == open else {
            index += 1
            continue
        }
        let tail = bytes[(index + 2)...]
        guard let kind = tail.first, kind == UInt8(ascii: "F") || kind == UInt8(ascii: "B") else {
            fatalError("polybar output has an unescaped '%{': \(output.debugDescription)")
        }
        let body = tail.dropFirst()
        let isReset = body.starts(with: "-}".utf8)
        let digits = body.dropFirst().prefix {
            UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0
        }
        let isColour =
            body.first == UInt8(ascii: "#") && (digits.count == 6 || digits.count == 8)
            && body.dropFirst(1 + digits.count).first == UInt8(ascii: "}")
        guard isReset || isColour else {
            fatalError("polybar output has an unescaped '%{': \(output.debugDescription)")
        }
        index += 2
    }
}

/// An odd run of `#` before `[` opens a style; every one is the renderer's own. Checked on bytes, as tmux reads them.
func checkTmuxStyles(_ bytes: [UInt8], output: String) {
    let known = ["[fg=#", "[bg=#", "[fg=default]", "[default]"]
    var index = 0
    while index < bytes.count {
        guard bytes[index] == UInt8(ascii: "#") else {
            index += 1
            continue
        }
        var end = index
        while end < bytes.count, bytes[end] == UInt8(ascii: "#") { end += 1 }
        if (end - index) % 2 == 1, end < bytes.count, bytes[end] == UInt8(ascii: "[") {
            // Bytes, as tmux reads them: as `Character`s a combining mark would join the style's `]`.
            guard known.contains(where: { bytes[end...].starts(with: $0.utf8) }) else {
                fatalError("tmux output has an unescaped '#[': \(output.debugDescription)")
            }
        }
        index = end
    }
}
