/// "Did you mean …?" for a word that is close to one of the valid choices.
public enum Suggestion {
    /// The candidate closest to `word` by edit distance, when it is close enough to be a likely typo.
    ///
    /// Close enough means at most a third of the word's length in edits (at least one, at most three), or
    /// the same letters ignoring case, so `intreval` finds `interval` but `foo` does not find `family`.
    ///
    /// Candidates whose length differs by more than the allowed edits are skipped without computing a distance (it is
    /// at least the difference), so a 64 KiB word costs one pass over it, not one quadratic table per candidate.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let longest = candidates.lazy.map(\.count).max() ?? 0
        guard word.utf8.count <= 4 * (longest + 3) else { return nil }
        let lowered = word.lowercased()
        let length = word.count
        let allowed = min(3, max(1, length / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let candidateLength = candidate.count
            if candidateLength == length, candidate.lowercased() == lowered { return candidate }
            guard abs(candidateLength - length) <= allowed else { continue }
            let distance = editDistance(lowered, candidate.lowercased())
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        return best.distance <= allowed ? best.candidate : nil
    }

    /// "; did you mean 'x'?" or "" — for appending to a message; with `then`, the text that follows,
    /// so both read as one sentence: "; did you mean 'x'? known kinds: …" or "; known kinds: …".
    public static func didYouMean(_ word: String, in candidates: [String], then list: String? = nil) -> String {
        let hint = closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
        guard let list else { return hint }
        return hint.isEmpty ? "; " + list : hint + " " + list
    }

    /// Damerau–Levenshtein (optimal string alignment) distance: a swap of neighbours counts as one edit.
    ///
    /// Written for a debug build too (`check` of a config with thousands of mistakes runs it thousands of times): plain
    /// comparisons instead of the generic `min`, and the table's last three rows in one array instead of three arrays
    /// rotated through a tuple.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let (a, b) = comparableCodes(a, b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        // Row i of the table starts at (i % 3) * width.
        var rows = [Int](repeating: 0, count: 3 * width)
        for j in 0..<width { rows[j] = j }
        for i in 1...a.count {
            let current = (i % 3) * width
            let previous = ((i - 1) % 3) * width
            let beforePrevious = ((i + 1) % 3) * width  // row i - 2
            rows[current] = i
            for j in 1...b.count {
                var best = rows[previous + j] + 1
                let insertion = rows[current + j - 1] + 1
                if insertion < best { best = insertion }
                let substitution = rows[previous + j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                if substitution < best { best = substitution }
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    let swap = rows[beforePrevious + j - 2] + 1
                    if swap < best { best = swap }
                }
                rows[current + j] = best
            }
        }
        return rows[(a.count % 3) * width + b.count]
    }

    /// The two words as numbers that are equal where their characters are: bytes when both are ASCII without a
    /// carriage return (then each byte is a whole character; `"\r\n"` is the one ASCII pair that makes a single
    /// `Character`), else a number per distinct character. Comparing numbers instead of `Character`s makes the
    /// distance of a config's thousand mistakes cheap even in a debug build.
    private static func comparableCodes(_ a: String, _ b: String) -> ([Int], [Int]) {
        func isPlainASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\r") } }
        if isPlainASCII(a), isPlainASCII(b) { return (a.utf8.map(Int.init), b.utf8.map(Int.init)) }
        var codes: [Character: Int] = [:]
        func code(_ character: Character) -> Int {
            if let known = codes[character] { return known }
            codes[character] = codes.count
            return codes.count - 1
        }
        return (a.map(code), b.map(code))
    }
}
