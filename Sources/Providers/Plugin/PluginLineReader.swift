import Glibc

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
            let newline = Self.newline(in: bytes, from: start)
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

    /// The index of the first newline at or after `start`. memchr, not `firstIndex(of:)`: a plugin's 10 MB line
    /// is scanned at memory speed, where a generic per-byte loop (unoptimised in debug builds) took seconds and held
    /// the plugin's replies past their deadline.
    private static func newline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.endIndex else { return nil }
        guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.endIndex - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
