import Config
import FoundationEssentials
import Output
import Runtime

/// The `bars:` entries' lines (`BarLine`): rendered at the end of each turn of the loop that changed what one of their
/// widgets shows, and sent to the bar's subscribers (`Daemon+Updates`) or, with none, written to its file, for
/// `widgetd bar --bar NAME` to pass on.
extension Daemon {
    /// Renders and passes on the line of every bar the turn changed; an unchanged line is not passed on.
    func writeBarLines(now: Date) {
        for bar in barLines.takeChanged() {
            let blocks = bar.items.map { item in
                let shown = engine.withInstance(named: item.widget) { $0.family }.flatMap { family in
                    engine.content(of: item.widget, at: now).map { (content: $0, family: family) }
                }
                guard let shown else { return BarBlock.missing(item) }
                return BarBlock.render(shown.content, family: shown.family, instance: item.widget, item: item)
            }
            let line = BarLine.line(blocks)
            guard !barLines.holds(line, bar: bar.name) else { continue }
            let subscribers = updateSubscribers.subscribers(of: bar.name)
            guard subscribers.isEmpty else {
                barLines.wrote(line, bar: bar.name)
                send(line, to: subscribers, of: bar.name)
                continue
            }
            do {
                try outputs.writeWhole(Array(line.utf8), name: bar.name, suffix: BarLine.suffix)
                if barLines.failing.contains(bar.name) { log(.info, "bar \(bar.name)'s line is written again") }
                barLines.wrote(line, bar: bar.name)
            } catch {
                if barLines.failed(bar: bar.name) { log(.error, "bar \(bar.name): cannot write its line: \(error)") }
            }
        }
    }

    /// Removes the lines of bars an earlier run had and this one's config lacks: `widgetd bar --bar` would show such a
    /// bar's last line for ever. Only `*.bar` files are touched.
    func removeLinesOfBarsGoneSinceLastRun() {
        let kept = Set(barLines.bars.map { BarLine.fileName(of: $0.name) })
        let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.output)) ?? []
        for name in names where name.hasSuffix("." + BarLine.suffix) && !name.hasPrefix(".") && !kept.contains(name) {
            try? outputs.remove(name: String(name.dropLast(BarLine.suffix.count + 1)), suffix: BarLine.suffix)
        }
    }

    /// The config's bars are now `bars`: the lines and subscribers of bars it no longer has go, and every line is
    /// passed on afresh.
    func configureBarLines(_ bars: [BarDefinition]) {
        let kept = Set(bars.map(\.name))
        dropSubscribersOfGoneBars(keeping: kept)
        for bar in barLines.bars where !kept.contains(bar.name) {
            do {
                try outputs.remove(name: bar.name, suffix: BarLine.suffix)
            } catch {
                log(.warning, "bar \(bar.name): cannot remove its line: \(error)")
            }
        }
        barLines = BarLines(bars)
    }
}
