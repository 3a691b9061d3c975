extension String {
    /// Every occurrence of `target` replaced by `replacement`, found by comparing UTF-8 bytes: Foundation's
    /// `replacingOccurrences(of:with:)` without Foundation, which would bring ICU into the daemon.
    ///
    /// Bytes, not `Character`s: a quote followed by a combining accent is one Character, and the standard library's
    /// `replacing(_:with:)` would leave that quote alone, which a shell or roff quoting function must never do.
    public func replacingAll(_ target: String, with replacement: String) -> String {
        let pattern = Array(target.utf8)
        guard !pattern.isEmpty else { return self }
        let bytes = Array(utf8)
        // Most texts hold no match (a dynamic date's token, a quote): returned as they are, with no copy.
        guard let first = bytes.firstIndex(of: pattern[0]),
            bytes.count - first >= pattern.count
        else { return self }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == pattern[0], bytes.count - index >= pattern.count,
                bytes[index..<index + pattern.count].elementsEqual(pattern)
            {
                result.append(contentsOf: replacement.utf8)
                index += pattern.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
