import Config
import FoundationEssentials
import Text
import TimeZones
import Timelines

/// What `widgetd list` shows of an instance beyond its current entry, as the daemon last wrote it.
public struct InstanceStatusRecord: Codable, Sendable, Equatable {
    /// `never`, `atEnd`, `after 2026-11-29T19:30:00+01:00`, or nil before the first timeline.
    public var policy: String?
    /// ISO 8601; nil when only a request will reload it.
    public var nextReload: String?
    public var reloading: Bool
    public var lastError: String?

    public init(_ status: InstanceStatus<WidgetInstance>) {
        let zone = Zone.current
        let nextReload = status.nextReload.map { ISO8601Text.format($0, in: zone) }
        switch status.policy {
        case nil: policy = nil
        case .never?: policy = "never"
        case .atEnd?: policy = "atEnd"
        case .after(let date)?:
            // Usually the next reload itself: formatted once, as a date's text is dear on a reload's way.
            let text = date == status.nextReload ? nextReload : nil
            policy = "after " + (text ?? ISO8601Text.format(date, in: zone))
        }
        self.nextReload = nextReload
        reloading = status.isReloading
        lastError = status.lastError
    }

    /// The status file's bytes: what `JSONEncoder` with sorted keys writes (compact, absent fields left out), except
    /// that slashes are not escaped, which every JSON reader takes alike. By hand, because the status file is written
    /// after every reload and the generic encoder would cost more than the rest of the reload's work
    /// (`StateRecord.encoded()` stays for the other records).
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(112 + (lastError?.utf8.count ?? 0))
        bytes.append(UInt8(ascii: "{"))
        func member(_ key: StaticString, _ value: String?) {
            guard let value else { return }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            bytes.append(contentsOf: #"":"#.utf8)
            Escaping.appendJSONString(value, to: &bytes)
            bytes.append(UInt8(ascii: ","))
        }
        // In sorted order: lastError, nextReload, policy, reloading (never absent, so it closes the object).
        member("lastError", lastError)
        member("nextReload", nextReload)
        member("policy", policy)
        bytes.append(contentsOf: #""reloading":"#.utf8)
        bytes.append(contentsOf: (reloading ? "true" : "false").utf8)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    public static func fileName(for instance: String) -> String { instance + ".json" }

    public static func path(for instance: String, in directory: String) -> String {
        directory + "/" + fileName(for: instance)
    }

    public static func read(instance: String, in directory: String) -> InstanceStatusRecord? {
        read(from: path(for: instance, in: directory))
    }
}
