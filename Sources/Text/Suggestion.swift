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
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
