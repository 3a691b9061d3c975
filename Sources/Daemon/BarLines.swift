import Config

/// The running config's `bars:` entries, and which of their lines the current turn of the loop changed: a widget's
/// new entry marks the bars that show it, and the turn's end renders and writes each marked line once
/// (`Daemon.writeBarLines`), so the samples of one deadline make one line however many widgets they are. Only the
/// blocks of the widgets that changed are rendered again: a sample changes a few blocks of a bar, not all.
struct BarLines {
    private(set) var bars: [BarDefinition]
    /// For each widget, where the bars show it: a bar's index and the item's index in it.
    private let places: [String: [(bar: Int, item: Int)]]
    private var changed: [Bool]
    /// Each bar's blocks as last rendered; nil where the widget changed since, or none was rendered yet.
    private var blocks: [[String?]]
    /// The line each bar was last given, by its file or to its subscribers (`BarLine`): an unchanged line is not passed
    /// on again.
    private var written: [String: String] = [:]
    /// The bars whose last write failed (logged once until one works).
    private(set) var failing: Set<String> = []

    init(_ bars: [BarDefinition]) {
        self.bars = bars
        var places: [String: [(bar: Int, item: Int)]] = [:]
        for (barIndex, bar) in bars.enumerated() {
            for (itemIndex, item) in bar.items.enumerated() {
                places[item.widget, default: []].append((barIndex, itemIndex))
            }
        }
        self.places = places
        changed = Array(repeating: true, count: bars.count)
        blocks = bars.map { Array(repeating: nil, count: $0.items.count) }
    }

    /// Whether no bar is configured: the turns then do nothing for bars at all.
    var isEmpty: Bool { bars.isEmpty }

    /// What `widget` shows changed.
    mutating func widgetChanged(_ widget: String) {
        guard let places = places[widget] else { return }
        for place in places {
            changed[place.bar] = true
            blocks[place.bar][place.item] = nil
        }
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

    /// The bars whose lines the turn changed, unmarked, as indices for `blocks(ofBar:rendering:)`.
    mutating func takeChanged() -> [Int] {
        guard changed.contains(true) else { return [] }
        defer { changed = Array(repeating: false, count: bars.count) }
        return bars.indices.filter { changed[$0] }
    }

    /// The blocks of the bar at `index`, `render` called for those whose widget changed since they were rendered.
    mutating func blocks(ofBar index: Int, rendering render: (BarItem) -> String) -> [String] {
        for (item, block) in blocks[index].enumerated() where block == nil {
            blocks[index][item] = render(bars[index].items[item])
        }
        return blocks[index].map { $0 ?? "" }
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
