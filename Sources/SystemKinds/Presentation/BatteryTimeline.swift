import FoundationEssentials
import Kind
import TimeZones
import Timelines

/// A battery's entries from one reading: the remaining time counts down on its own, so the reading becomes a
/// timeline with an entry at each minute the remaining time crosses, instead of a wake-up per second; the next
/// uevent (or the safety re-read) replaces it with one anchored on a new reading.
struct BatteryTimeline {
    var format: PlaceholderFormat
    /// At or below these percentages, while not charging, the text turns yellow, then red and urgent.
    var warning: Double?
    var critical: Double?
    var family: Family
    var timeZone: Zone

    /// How many minutes of countdown one timeline holds; well past the safety re-read, which anchors a new one.
    static let horizonMinutes = 30

    func timeline(_ battery: Battery, at now: Date) -> Timeline {
        guard let remaining = battery.secondsRemaining else {
            return Timeline(
                entries: [TimelineEntry(date: now, content: content(battery, remaining: nil, at: now))], policy: .never)
        }
        var entries = [TimelineEntry(date: now, content: content(battery, remaining: remaining, at: now))]
        // The shown minutes (rounded down, as i3status shows them) drop as the remaining time falls below a whole
        // minute: first after its odd seconds, then every 60 s, until empty or full.
        var next = remaining.truncatingRemainder(dividingBy: 60)
        if next == 0 { next = 60 }
        var left = remaining - next
        while left > 0 && entries.count <= Self.horizonMinutes {
            let date = now.addingTimeInterval(next)
            entries.append(
                TimelineEntry(
                    date: date, content: content(battery, remaining: left, minutes: Int(left / 60) - 1, at: date)))
            next += 60
            left -= 60
        }
        return Timeline(entries: entries, policy: .never)
    }

    /// The entry for a battery with `remaining` seconds to go at `date`, showing `minutes` (by default the remaining
    /// time's whole minutes).
    func content(_ battery: Battery, remaining: Double?, minutes: Int? = nil, at date: Date) -> EntryContent {
        let minutes = minutes ?? remaining.map { Int(max(0, $0) / 60) }
        let percentage = battery.percentage
        var values = [
            "status": battery.state.i3statusLabel, "state": battery.state.rawValue,
            "percentage": percentage.map { String(Int($0.rounded())) + "%" } ?? "?",
            "remaining": "", "emptytime": "", "consumption": "",
        ]
        if let remaining, let minutes {
            values["remaining"] = Self.hoursAndMinutes(minutes)
            values["emptytime"] = TimeFormat("%H:%M").string(
                at: Int(date.timeIntervalSince1970 + remaining), in: timeZone)
        }
        if let power = battery.power, power > 0 {
            values["consumption"] = ByteFormat.fixed(power / 1_000_000, decimals: 2) + " W"
        }
        var tooltip = "\(battery.name): \(battery.state.rawValue), \(values["percentage"]!)"
        if let minutes {
            tooltip +=
                ", " + Self.hoursAndMinutes(minutes)
                + (battery.state == .charging ? " until full" : " until empty")
        }
        let reading = SystemReading(
            values: values,
            // Low is what is bad here; negated, the shared `>=` thresholds compare it the right way round.
            level: battery.state == .charging || battery.state == .full ? nil : percentage.map { -$0 },
            fraction: percentage.map { $0 / 100 }, tooltip: tooltip)
        var content = reading.content(
            format: format, thresholds: Thresholds(warning: warning.map { -$0 }, critical: critical.map { -$0 }),
            family: family)
        // An empty `{remaining}` (no power figure, or full) leaves no dangling space at the end.
        content.text = content.text.trimmingSpaces()
        return content
    }

    /// i3status's `%remaining`: `HH:MM`.
    static func hoursAndMinutes(_ minutes: Int) -> String {
        let hours = minutes / 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes % 60 < 10 ? "0" : "") + String(minutes % 60)
    }
}
