import Config
import FoundationEssentials
import TimeZones
import Timelines

/// What `widgetd list` shows of an instance beyond its current entry, as the daemon last wrote it.
struct InstanceStatusRecord: Codable, Sendable, Equatable {
    /// `never`, `atEnd`, `after 2026-11-29T19:30:00+01:00`, or nil before the first timeline.
    var policy: String?
    /// ISO 8601; nil when only a request will reload it.
    var nextReload: String?
    var reloading: Bool
    var lastError: String?

    init(_ status: InstanceStatus<WidgetInstance>) {
        let zone = Zone.current
        let nextReload = status.nextReload.map { ISO8601Text.format($0, in: zone) }
        switch status.policy {
        case nil: policy = nil
        case .never?: policy = "never"
        case .atEnd?: policy = "atEnd"
        case .after(let date)?:
            // Usually the next reload itself: formatted once (a date's text is a tenth of a reload's instructions).
            let text = date == status.nextReload ? nextReload : nil
            policy = "after " + (text ?? ISO8601Text.format(date, in: zone))
        }
        self.nextReload = nextReload
        reloading = status.isReloading
        lastError = status.lastError
    }

    static func path(for instance: String, in directory: String) -> String {
        directory + "/" + instance + ".json"
    }

    static func read(instance: String, in directory: String) -> InstanceStatusRecord? {
        read(from: path(for: instance, in: directory))
    }
}
