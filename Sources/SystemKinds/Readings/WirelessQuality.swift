/// A wireless interface's link quality from /proc/net/wireless (per network namespace, like /proc/net/dev).
///
/// The kernel has no event for a changing signal (nl80211 tells of one only past a threshold a program sets), so the
/// quality is read when the widget samples, like throughput.
public struct WirelessQuality: Sendable, Hashable {
    /// The `link` column: cfg80211 drivers give 0–70.
    public var link: Double

    /// The range cfg80211 reports link quality in (its `max_qual.qual`), which most drivers use.
    public static let maximum: Double = 70

    public init(link: Double) {
        self.link = link
    }

    /// `link` as a percentage of `maximum`, at most 100.
    public var percentage: Int { Int((min(max(link, 0), Self.maximum) / Self.maximum * 100).rounded()) }

    /// The line of `interface` in /proc/net/wireless (two header lines, then `name: status link. level. noise. …`);
    /// nil when it is not listed (not wireless, or no such interface) or the number does not read.
    public init?(procNetWireless text: String, interface: String) {
        for line in text.split(separator: "\n").dropFirst(2) {
            guard let colon = line.firstIndex(of: ":"),
                line[..<colon].split(separator: " ").first == Substring(interface)
            else { continue }
            let fields = line[line.index(after: colon)...].split(separator: " ")
            guard fields.count >= 2 else { return nil }
            var link = fields[1]
            if link.last == "." { link.removeLast() }
            guard let value = Double(link) else { return nil }
            self.init(link: value)
            return
        }
        return nil
    }
}
