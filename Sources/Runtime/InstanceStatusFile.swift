import Config
import Formats
import FoundationEssentials
import Text
import TimeZones
import Timelines

/// What `widgetd list` shows of an instance beyond its current entry, as the daemon last wrote it.
///
/// A widget whose next reload is its `.after` policy's date (a sampled kind, an `exec` widget with an `interval:`)
/// has that date in its record (`InstanceRecord.reloadAfter`), which every new timeline rewrites anyway; its status
/// file says only `after` and `reloadsWithPolicy` (`resolved(with:now:scheduled:)` puts the date back). So the status file stays the
/// same from one sample to the next, and the daemon does not write it again (`StateFiles`).
public struct InstanceStatusRecord: Codable, Sendable, Hashable {
    /// `never`, `atEnd`, `after 2026-11-29T19:30:00+01:00`, `after` (the date is the record's), or nil before the
    /// first timeline.
    public var policy: String?
    /// ISO 8601; nil when only a request will reload it, or when `reloadsWithPolicy`.
    public var nextReload: String?
    public var reloading: Bool
    public var lastError: String?
    /// The next reload is the date of the `.after` policy, in the instance's record.
    public var reloadsWithPolicy: Bool

    public init(_ status: InstanceStatus<WidgetInstance>) {
        switch status.policy {
        case nil: policy = nil
        case .never?: policy = "never"
        case .atEnd?: policy = "atEnd"
        case .after(let date)? where date == status.nextReload && !status.isReloading:
            policy = "after"
        case .after(let date)?:
            policy = "after " + ISO8601Text.format(date, in: Zone.current)
        }
        reloadsWithPolicy = policy == "after"
        nextReload = reloadsWithPolicy ? nil : status.nextReload.map { ISO8601Text.format($0, in: Zone.current) }
        reloading = status.isReloading
        lastError = status.lastError
    }

    private enum CodingKeys: String, CodingKey {
        case policy, nextReload, reloading, lastError, reloadsWithPolicy
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        policy = try container.decodeIfPresent(String.self, forKey: .policy)
        nextReload = try container.decodeIfPresent(String.self, forKey: .nextReload)
        reloading = try container.decode(Bool.self, forKey: .reloading)
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
        reloadsWithPolicy = try container.decodeIfPresent(Bool.self, forKey: .reloadsWithPolicy) ?? false
    }

    /// As `encoded()` writes it: `reloadsWithPolicy` only when true.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(policy, forKey: .policy)
        try container.encodeIfPresent(nextReload, forKey: .nextReload)
        try container.encode(reloading, forKey: .reloading)
        try container.encodeIfPresent(lastError, forKey: .lastError)
        if reloadsWithPolicy { try container.encode(true, forKey: .reloadsWithPolicy) }
    }

    /// The status with the policy's date from `record` written back in: `after DATE`, and DATE as the next reload.
    /// Once the record's date has passed, the daemon may have left the record as it was (a sample that read the same
    /// value): the date is then the next after `now` by the kind's rule (`scheduled`), when it has one. Without a
    /// record to take it from, the date stays unknown.
    public func resolved(
        with record: InstanceRecord?, now: Date, scheduled: (Date) -> Date? = { _ in nil }
    ) -> InstanceStatusRecord {
        guard reloadsWithPolicy, let recorded = record?.reloadAfter else { return self }
        let date = recorded > now ? recorded : scheduled(now) ?? recorded
        var resolved = self
        let text = ISO8601Text.format(date, in: Zone.current)
        resolved.policy = "after " + text
        resolved.nextReload = text
        resolved.reloadsWithPolicy = false
        return resolved
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
        // In sorted order: lastError, nextReload, policy, reloading (never absent), reloadsWithPolicy (only when true).
        member("lastError", lastError)
        member("nextReload", nextReload)
        member("policy", policy)
        bytes.append(contentsOf: #""reloading":"#.utf8)
        bytes.append(contentsOf: (reloading ? "true" : "false").utf8)
        if reloadsWithPolicy { bytes.append(contentsOf: #","reloadsWithPolicy":true"#.utf8) }
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
