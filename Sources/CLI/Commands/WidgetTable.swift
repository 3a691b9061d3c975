import Config
import FoundationEssentials
import Kind
import Runtime
import System
import Text
import TimeZones
import Timelines

/// The table `list` and `status` print: each widget with its current text, policy, next reload and last error.
enum WidgetTable {
    struct Row {
        var name: String
        var kind: String
        var family: String
        /// The widget's next reload after a date by its kind's rule (`WidgetKind.nextScheduledReload`), for a record
        /// whose date has passed; nil without a rule, or without the config's settings to apply it to.
        var nextScheduledReload: (Date) -> Date? = { _ in nil }
    }

    /// The rows of `configuration`'s widgets.
    static func rows(of configuration: Configuration, registry: KindRegistry) -> [Row] {
        configuration.widgets.map { widget in
            let kind = registry.kind(named: widget.kind)
            return Row(name: widget.name, kind: widget.kind, family: widget.family.rawValue) { now in
                kind?.nextScheduledReload(after: now, settings: widget.settings)
            }
        }
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

    /// `list`'s table: every column in full, times as ISO 8601, for reading and for scripts.
    static func lines(_ widgets: [Row], paths: DaemonPaths) -> [String] {
        var rows = [["NAME", "KIND", "FAMILY", "TEXT", "POLICY", "NEXT RELOAD", "LAST ERROR"]]
        let following = follow(widgets, paths: paths)
        defer { withExtendedLifetime(following) {} }
        let gone = GonePlugins(statusDirectory: paths.plugins)
        for widget in widgets {
            let (text, status) = current(widget, paths: paths)
            rows.append([
                widget.name, widget.kind, widget.family, TerminalText.escaped(text), status?.policy ?? "-",
                status.map {
                    $0.reloading ? "now (reloading)" : $0.nextReload ?? ($0.reloadsWithPolicy ? "-" : "on request")
                }
                    ?? "-",
                lastError(of: widget, status: status, gone: gone),
            ])
        }
        return aligned(rows)
    }

    /// `status`'s table, kept to one terminal's width as `systemctl status` is: the family and policy are left out
    /// (`list` has them), the next reload is a time of day when it falls today in `zone` (else a date and a minute),
    /// the text is cut at `textWidth` cells, the kind at 12, the name at 24, and the last error takes what remains of
    /// `width`, at least its heading's 10. When long names leave the error less, the text gives up cells first, then
    /// the name, each down to 10.
    static func compactLines(
        _ widgets: [Row], paths: DaemonPaths, now: Date, zone: Zone, width: Int = 80, textWidth: Int = 24
    ) -> [String] {
        var rows = [["NAME", "KIND", "TEXT", "NEXT RELOAD", "LAST ERROR"]]
        let following = follow(widgets, paths: paths)
        defer { withExtendedLifetime(following) {} }
        let gone = GonePlugins(statusDirectory: paths.plugins)
        for widget in widgets {
            let (text, status) = current(widget, paths: paths)
            let next: String
            switch status {
            case nil: next = "-"
            case let status? where status.reloading: next = "reloading"
            case let status?:
                next =
                    status.nextReload.map { shortTime($0, now: now, zone: zone) }
                    ?? (status.reloadsWithPolicy ? "-" : "on request")
            }
            rows.append([
                widget.name, widget.kind, TerminalText.escaped(text), next,
                lastError(of: widget, status: status, gone: gone),
            ])
        }
        let errorRoom = 10
        // Name, kind, text and next reload: the most cells each may take, and the fewest the squeeze leaves them.
        var caps = [24, 12, textWidth, 12]
        func shown(_ column: Int) -> Int { min(caps[column], rows.map { DisplayWidth.of($0[column]) }.max() ?? 0) }
        while caps.indices.map({ shown($0) + 2 }).reduce(0, +) + errorRoom > width {
            if caps[2] > 10 {
                caps[2] -= 1
            } else if caps[0] > 10 {
                caps[0] -= 1
            } else {
                break
            }
        }
        let room = max(width - caps.indices.map { shown($0) + 2 }.reduce(0, +), errorRoom)
        for index in rows.indices.dropFirst() {
            for column in caps.indices {
                rows[index][column] = DisplayWidth.truncate(rows[index][column], toWidth: caps[column])
            }
            rows[index][4] = DisplayWidth.truncate(rows[index][4], toWidth: room)
        }
        return aligned(rows)
    }

    /// Follows the widgets' records: the daemon writes a sampled widget's (a kind that reloads on a rule) only while
    /// someone follows it (`UpdatesMessage.follow`), and which widgets are sampled is the daemon's to say: the rows of
    /// the records in the output directory carry no rule, nor does a widget of a kind this CLI does not know. The
    /// connection stays open while the table is made.
    private static func follow(_ widgets: [Row], paths: DaemonPaths) -> PacketSocket? {
        DaemonSubscription.follow(widgets.map(\.name), socketPath: paths.control.updates)
    }

    /// What the daemon last wrote of `widget`: its current text ("-" before any) and its status file.
    private static func current(_ widget: Row, paths: DaemonPaths) -> (text: String, status: InstanceStatusRecord?) {
        let record = ShowCommand.readRecord(paths.output + "/" + widget.name + ".json")
        return (
            record.map { ShowCommand.render($0, as: .plain, at: Date()) } ?? "-",
            InstanceStatusRecord.read(instance: widget.name, in: paths.status)?.resolved(
                with: record, now: Date(), scheduled: widget.nextScheduledReload)
        )
    }

    /// An ISO 8601 time as a person reads it at a glance, as `ls -l` does: "23:33:48" today, "Dec  1 09:00" another
    /// day within half a year, "Jan  1  2099" further away (a reload policy may be years off).
    static func shortTime(_ iso: String, now: Date, zone: Zone) -> String {
        guard let date = ISO8601Text.parse(iso, defaultTimeZone: zone) else { return iso }
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let today = zone.civilTime(at: Int(now.timeIntervalSince1970.rounded(.down))).time.date
        let format: String
        if zone.civilTime(at: seconds).time.date == today {
            format = "%T"
        } else if abs(date.timeIntervalSince(now)) < 182 * 86_400 {
            format = "%b %e %R"
        } else {
            format = "%b %e  %Y"
        }
        return TimeFormat(format).string(at: seconds, in: zone)
    }

    /// The widget's last error; for a widget whose plugin is gone since the daemon started it, that, first: its next
    /// error is only the plugin failing to start.
    private static func lastError(of widget: Row, status: InstanceStatusRecord?, gone: GonePlugins) -> String {
        let error = status.map { TerminalText.escaped($0.lastError ?? "-") } ?? "-"
        guard let note = gone.note(forKind: widget.kind) else { return error }
        return TerminalText.escaped(note) + (error == "-" ? "" : "; " + error)
    }

    /// Rows padded into columns two spaces apart; the last column is not padded.
    private static func aligned(_ rows: [[String]]) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
            }.joined(separator: "  ")
        }
    }
}
