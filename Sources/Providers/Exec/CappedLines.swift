import Glibc

/// Splits a persist command's (or a plugin's, `PluginLineReader`) output into lines as it comes, holding at most `cap` bytes of one: a line that reaches
/// the cap is given as it is then, marked cut, and the rest of it up to its newline is dropped without being kept.
struct CappedLines {
    struct Line: Equatable {
        var bytes: [UInt8]
        /// It reached the cap; what followed, up to its newline, was dropped.
        var cut: Bool
    }

    let cap: Int
    private var pending: [UInt8] = []
    private var discarding = false

    init(cap: Int) {
        self.cap = cap
    }

    /// The lines that `bytes` complete, and the one cut at the cap if it is reached.
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> [Line] {
        var lines: [Line] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let newline = Self.newline(in: bytes, from: start)
            let end = newline ?? bytes.endIndex
            if !discarding {
                pending.append(contentsOf: bytes[start..<min(end, start + cap - pending.count)])
                if pending.count >= cap {
                    lines.append(Line(bytes: pending, cut: true))
                    // A megabyte held for a plugin's one long line is let go.
                    pending.removeAll(keepingCapacity: pending.count < 65_536)
                    discarding = true
                }
            }
            guard let newline else { break }
            if !discarding { lines.append(Line(bytes: pending, cut: false)) }
            pending.removeAll(keepingCapacity: pending.count < 65_536)
            discarding = false
            start = newline + 1
        }
        return lines
    }

    /// The index of the first newline at or after `start`. memchr, not a loop over the bytes: a line with no end is
    /// scanned at memory speed, where a per-byte loop (unoptimised in debug builds) cost the daemon more than reading.
    private static func newline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.endIndex else { return nil }
        guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.endIndex - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
