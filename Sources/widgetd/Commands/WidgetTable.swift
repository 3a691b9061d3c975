import Config
import FoundationEssentials
import Text

/// The table `list` and `status` print: each widget with its current text, policy, next reload and last error.
enum WidgetTable {
    struct Row {
        var name: String
        var kind: String
        var family: String
    }

    /// The rows of `configuration`'s widgets.
    static func rows(of configuration: Configuration) -> [Row] {
        configuration.widgets.map { Row(name: $0.name, kind: $0.kind, family: $0.family.rawValue) }
    }

    /// The rows of the records the daemon keeps in `output`: the widgets it runs, whatever the config file says now.
    static func rows(inOutput output: String) -> [Row] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().compactMap { name in
            ShowCommand.readRecord(output + "/" + name).map {
                Row(name: $0.instance, kind: $0.kind, family: $0.family.rawValue)
            }
        }
    }

    static func lines(_ widgets: [Row], paths: DaemonPaths) -> [String] {
        var rows = [["NAME", "KIND", "FAMILY", "TEXT", "POLICY", "NEXT RELOAD", "LAST ERROR"]]
        for widget in widgets {
            let text = ShowCommand.render(paths.output + "/" + widget.name + ".json", as: .plain) ?? "-"
            let status = InstanceStatusRecord.read(instance: widget.name, in: paths.status)
            rows.append([
                widget.name, widget.kind, widget.family, text, status?.policy ?? "-",
                status.map { $0.reloading ? "now (reloading)" : $0.nextReload ?? "on request" } ?? "-",
                status?.lastError ?? "-",
            ])
        }
        let widths = rows[0].indices.map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
            }.joined(separator: "  ")
        }
    }
}
