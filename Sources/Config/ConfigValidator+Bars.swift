import Text
import Timelines
import YAML

/// The `bars:` section: bar names to lists of widgets, each a widget's name or a one-key mapping from the name to its
/// block layout.
///
/// ```yaml
/// bars:
///   top: [motivation, todos, clock]
///   bottom:
///     - quote
///     - todos: {min_width: 200, align: center, separator: false}
/// ```
extension ConfigValidator {
    mutating func bars(from node: YAMLNode, widgetNames: [String]) -> [BarDefinition] {
        guard let pairs = mapping(node, what: "'bars'", expecting: "bar names to lists of widgets") else { return [] }
        var bars: [BarDefinition] = []
        for pair in pairs {
            if isFull { break }
            guard let name = keyName(pair.key) else { continue }
            guard let items = pair.value.sequence else {
                report(
                    "bar '\(name)' must be a list of widget names, found \(pair.value.kindDescription)",
                    at: pair.value.mark)
                continue
            }
            bars.append(
                BarDefinition(
                    name: name, items: items.compactMap { barItem($0, widgetNames: widgetNames) }, mark: pair.key.mark))
        }
        return bars
    }

    private mutating func barItem(_ node: YAMLNode, widgetNames: [String]) -> BarItem? {
        let nameNode: YAMLNode
        var layout: [YAMLPair] = []
        if let pairs = node.mapping {
            guard pairs.count == 1 else {
                report("a bar's widget with settings is a mapping of its name alone to them", at: node.mark)
                return nil
            }
            nameNode = pairs[0].key
            guard let settings = mapping(pairs[0].value, what: "a bar widget's settings", expecting: "block properties")
            else { return nil }
            layout = settings
        } else {
            nameNode = node
        }
        guard let name = text(nameNode, for: "bars", expected: "a widget name") else { return nil }
        guard widgetNames.contains(name) else {
            report("unknown widget '\(name)'" + Suggestion.didYouMean(name, in: widgetNames), at: nameNode.mark)
            return nil
        }
        var item = BarItem(widget: name)
        for pair in layout {
            guard let key = keyName(pair.key) else { continue }
            switch key {
            case "min_width":
                guard let value = text(pair.value, for: key, expected: "pixels or a text") else { continue }
                item.minWidth = Int(value).map { .pixels(max($0, 0)) } ?? .text(value)
            case "align":
                guard let value = text(pair.value, for: key, expected: "left, center or right") else { continue }
                if BarItem.alignments.contains(value) {
                    item.align = value
                } else {
                    report(
                        "'align' must be left, center or right, found '\(value)'"
                            + Suggestion.didYouMean(value, in: BarItem.alignments), at: pair.value.mark)
                }
            case "separator":
                guard let value = text(pair.value, for: key, expected: "true or false") else { continue }
                if let flag = ParameterDecoder.bool(from: value) {
                    item.separator = flag
                } else {
                    report("'separator' expects true or false, found '\(value)'", at: pair.value.mark)
                }
            case "separator_block_width":
                guard let value = text(pair.value, for: key, expected: "pixels") else { continue }
                if let pixels = Int(value), (0...10_000).contains(pixels) {
                    item.separatorBlockWidth = pixels
                } else {
                    report("'separator_block_width' expects pixels (0 to 10000), found '\(value)'", at: pair.value.mark)
                }
            case "border":
                guard let value = text(pair.value, for: key, expected: "a colour") else { continue }
                if let color = Color(hex: value) {
                    item.border = color
                } else {
                    report("'border' expects a colour such as #RRGGBB, found '\(value)'", at: pair.value.mark)
                }
            default:
                report(
                    "unknown bar widget setting '\(ConfigLimits.quoted(key))'"
                        + Suggestion.didYouMean(
                            key, in: BarItem.keys, then: "settings are \(BarItem.keys.joined(separator: ", "))"),
                    at: pair.key.mark)
            }
        }
        return item
    }

    /// A widget a `bars:` entry shows writes no file of its own unless its `output:` names one: the bar's line shows
    /// it, and a file beside it would be written at every sample for no reader. (`widgetd show` and `list` read its
    /// record, which is written either way.)
    func withoutDefaultFiles(_ widgets: [WidgetInstance], shownOn bars: [BarDefinition]) -> [WidgetInstance] {
        let shown = Set(bars.flatMap { $0.items.map(\.widget) })
        guard !shown.isEmpty else { return widgets }
        return widgets.map { widget in
            guard shown.contains(widget.name), !widgetsNamingOutputs.contains(widget.name) else { return widget }
            var bare = widget
            bare.outputs = []
            return bare
        }
    }
}
