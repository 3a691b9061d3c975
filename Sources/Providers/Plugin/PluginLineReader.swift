/// Splits a plugin's output into lines, holding at most `cap` bytes of one: a longer line is reported as oversized
/// once and the rest of it is skipped up to the next newline without being buffered, so a 10 MB line costs the
/// daemon 1 MiB of memory at most. A persist command's lines are split the same way (`CappedLines`); a plugin's
/// line past the cap is not JSON it can use, so it is dropped whole; only the id of a reply is read from its head, so
/// that the request it answered fails with the reason instead of waiting out its deadline.
struct PluginLineReader {
    enum Item: Equatable {
        case line([UInt8])
        /// A line longer than the cap; its bytes were dropped. `replyTo`: the id its head names, when it begins as a
        /// reply does (`PluginMessage.replyID(atTheHeadOf:)`).
        case oversized(replyTo: Int?)
    }

    private var lines: CappedLines

    /// A line of exactly `cap` bytes is whole: a line is cut when it reaches one byte more.
    init(cap: Int) {
        lines = CappedLines(cap: cap + 1)
    }

    /// The complete lines (and oversized ones) in `bytes`, appended to what came before.
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> [Item] {
        lines.feed(bytes).map {
            $0.cut ? .oversized(replyTo: PluginMessage.replyID(atTheHeadOf: $0.bytes)) : .line($0.bytes)
        }
    }
}
