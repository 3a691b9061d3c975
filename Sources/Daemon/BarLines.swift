import Config

/// The running config's `bars:` entries, and which of their lines the current turn of the loop changed: a widget's
/// new entry marks the bars that show it, and the turn's end renders and writes each marked line once
/// (`Daemon.writeBarLines`), so the samples of one deadline make one line however many widgets they are.
struct BarLines {
    private(set) var bars: [BarDefinition]
    /// For each widget, the indices of the bars that show it.
    private let barsShowing: [String: [Int]]
    private var changed: [Bool]
    /// The line each bar was last given, by its file or to its subscribers (`BarLine`): an unchanged line is not passed
    /// on again.
    private var written: [String: String] = [:]
    /// The bars whose last write failed (logged once until one works).
    private(set) var failing: Set<String> = []

    init(_ bars: [BarDefinition]) {
        self.bars = bars
        var showing: [String: [Int]] = [:]
        for (index, bar) in bars.enumerated() {
            for item in bar.items where showing[item.widget]?.last != index {
                showing[item.widget, default: []].append(index)
            }
        }
        barsShowing = showing
        changed = Array(repeating: true, count: bars.count)
    }

    /// Whether no bar is configured: the turns then do nothing for bars at all.
    var isEmpty: Bool { bars.isEmpty }

    /// What `widget` shows changed.
    mutating func widgetChanged(_ widget: String) {
        guard let indices = barsShowing[widget] else { return }
        for index in indices { changed[index] = true }
    }

    /// `bar`'s line is passed on again at the turn's end, whether or not it changed.
    mutating func markChanged(_ bar: String) {
        guard let index = bars.firstIndex(where: { $0.name == bar }) else { return }
        written[bar] = nil
        changed[index] = true
    }

    /// Every line is written again at the turn's end, whether or not it changed (its file was deleted).
    mutating func rewriteAll() {
        written = [:]
        changed = Array(repeating: true, count: bars.count)
    }

    /// The bars whose lines the turn changed, unmarked.
    mutating func takeChanged() -> [BarDefinition] {
        guard changed.contains(true) else { return [] }
        defer { changed = Array(repeating: false, count: bars.count) }
        return bars.indices.filter { changed[$0] }.map { bars[$0] }
    }

    /// Whether `line` is what `bar` was last given.
    func holds(_ line: String, bar: String) -> Bool { written[bar] == line }

    /// The line `bar` was last given; nil before its first, or after a failed write.
    func line(of bar: String) -> String? { written[bar] }

    mutating func wrote(_ line: String, bar: String) {
        written[bar] = line
        failing.remove(bar)
    }

    /// A write of `bar`'s line failed; true the first time since it last worked (to log it once). Its line is
    /// written again at the next change.
    mutating func failed(bar: String) -> Bool {
        written[bar] = nil
        return failing.insert(bar).inserted
    }
}
