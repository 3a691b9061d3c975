import Kind
import Timelines

/// What a network widget shows for a state of the network: pure, so the session, the preview and the tests share it.
struct NetworkPresentation: Sendable {
    /// `interface:`, or nil for the default route's.
    var interface: String?
    /// The format of a running interface (`format:`, or `format_alt:` while toggled).
    var format: PlaceholderFormat
    /// The format of one that is down or absent.
    var formatDown: PlaceholderFormat
    var family: Family

    /// The placeholders that only a sample gives (no event tells of them).
    static let sampledPlaceholders: Set<String> = ["up", "down", "quality"]

    /// The link it shows in `state`, and its name (the named one even when absent).
    func link(in state: NetworkState) -> (NetworkLink?, name: String?) {
        if let interface { return (state.link(named: interface), interface) }
        let link = state.defaultLink
        return (link, link?.name)
    }

    /// The entry for `state`, with the throughput since the previous sample and the link quality when they were read,
    /// and the SSID nl80211 gave.
    func content(
        _ state: NetworkState, rates: (down: UInt64, up: UInt64)?, quality: WirelessQuality?, ssid: String? = nil
    ) -> EntryContent {
        let (link, name) = link(in: state)
        guard let name else {
            return EntryContent(
                text: "no interface", tooltip: "no network interface but loopback", classes: ["absent"])
        }
        let ipv4 = link.map { state.addresses(of: $0.index, .ipv4) } ?? []
        let ipv6 = link.map { state.addresses(of: $0.index, .ipv6) } ?? []
        let stateWord = link == nil ? "absent" : link!.isRunning ? "up" : "down"
        let bytes = ByteFormat(prefixes: .binary, decimals: 1)
        let ipv4Text: String = ipv4.first?.text ?? "no IPv4"
        let ipv6Text: String = ipv6.first?.text ?? "no IPv6"
        // i3status's %ip: an IPv4 address, else an IPv6 one, else "no IP".
        let ipText: String = (ipv4.first ?? ipv6.first)?.text ?? "no IP"
        let upText: String = rates.map { bytes.format($0.up) + "/s" } ?? "--"
        let downText: String = rates.map { bytes.format($0.down) + "/s" } ?? "--"
        let qualityText: String = quality.map { String($0.percentage) + "%" } ?? "--"
        var values: [String: String] = [
            "interface": name, "state": stateWord, "ipv4": ipv4Text, "ipv6": ipv6Text, "ip": ipText, "up": upText,
            "down": downText, "quality": qualityText, "ssid": ssid ?? "--",
        ]
        if link?.isRunning != true { values["ip"] = "no IP" }
        let addresses = (ipv4 + ipv6).map { "\($0.text)/\($0.prefixLength)" }
        let tooltip =
            link == nil
            ? "no interface \(name)"
            : "\(name) \(stateWord)" + (addresses.isEmpty ? ", no address" : ": " + addresses.joined(separator: ", "))
        let reading = SystemReading(
            values: values, level: nil, fraction: quality.map { Double($0.percentage) / 100 }, tooltip: tooltip)
        let running = link?.isRunning == true
        var content = reading.content(
            format: running ? format : formatDown, thresholds: Thresholds(warning: nil, critical: nil),
            family: family)
        if !running { content.classes = [link == nil ? "absent" : "down"] }
        return content
    }
}
