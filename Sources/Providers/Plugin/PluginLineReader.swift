/// Splits a plugin's output into lines, holding at most `cap` bytes of one: a longer line is reported as oversized
/// once and the rest of it is skipped up to the next newline without being buffered, so a 10 MB line costs the
/// daemon 1 MiB of memory at most.
struct PluginLineReader {
    enum Item: Equatable {
        case line([UInt8])
        /// A line longer than the cap; its bytes were dropped.
        case oversized
    }

    let cap: Int
    private var pending: [UInt8] = []
    private var skipping = false

    init(cap: Int) {
        self.cap = cap
    }

    /// The complete lines (and oversized ones) in `bytes`, appended to what came before.
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> [Item] {
        var items: [Item] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? bytes.endIndex
            if !skipping {
                if pending.count + (end - start) > cap {
                    skipping = true
                    pending.removeAll()
                    items.append(.oversized)
                } else {
                    pending.append(contentsOf: bytes[start..<end])
                }
            }
            guard let newline else { break }
            if !skipping { items.append(.line(pending)) }
            pending.removeAll(keepingCapacity: pending.count < 65_536)
            skipping = false
            start = newline + 1
        }
        return items
    }
}
