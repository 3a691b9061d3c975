import Foundation
import Synchronization

/// A time zone's short name (`CET`, `EST`) for strftime's `%Z`.
///
/// Foundation on Linux answers `TimeZone.abbreviation(for:)` with "GMT+1"; ICU's short specific names
/// are what people expect, but ICU only gives them for locales where they are "commonly used" (en_US
/// for American zones, en_GB for European ones), so a few locales are asked in turn. Answers are cached
/// per zone and offset, as formatters are slow to make.
public enum ZoneAbbreviation {
    private static let cache = Mutex<[String: String]>([:])
    private static let locales = ["en_US", "en_GB", "en_AU", "en_IN", "en_NZ"].map(Locale.init(identifier:))

    public static func of(_ zone: TimeZone, at date: Date) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let key = "\(zone.identifier) \(offset)"
        if let known = cache.withLock({ $0[key] }) { return known }
        let name = lookUp(zone, at: date)
        cache.withLock { $0[key] = name }
        return name
    }

    private static func lookUp(_ zone: TimeZone, at date: Date) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = zone
        formatter.dateFormat = "zzz"
        for locale in locales {
            formatter.locale = locale
            let name = formatter.string(from: date)
            if !name.hasPrefix("GMT") && !name.hasPrefix("UTC") { return name }
        }
        if zone.secondsFromGMT(for: date) == 0 { return "UTC" }
        return zone.abbreviation(for: date) ?? formatter.string(from: date)
    }
}
