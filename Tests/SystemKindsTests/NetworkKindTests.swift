import Kind
import Testing
import Timelines

@testable import SystemKinds

/// What a network widget shows for a state: the formats, the placeholders, down and absent interfaces, the families,
/// and the readings of /proc/net/dev and /proc/net/wireless.
@Suite("network")
struct NetworkKindTests {
    static let state: NetworkState = {
        var state = NetworkState()
        state.apply(.link(NetworkLink(index: 1, name: "lo", flags: 0x49)))
        state.apply(.link(NetworkLink(index: 2, name: "eth0", flags: 0x41)))
        state.apply(.link(NetworkLink(index: 3, name: "eth1", flags: 0x1)))
        state.apply(
            .address(
                NetworkAddress(
                    index: 2, family: .ipv6, bytes: [0xfe, 0x80] + [UInt8](repeating: 0, count: 13) + [1],
                    prefixLength: 64, scope: 253)))
        state.apply(
            .address(
                NetworkAddress(
                    index: 2, family: .ipv6, bytes: [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [9],
                    prefixLength: 64)))
        state.apply(.address(NetworkAddress(index: 2, family: .ipv4, bytes: [192, 0, 2, 7], prefixLength: 24)))
        return state
    }()

    static func presentation(_ interface: String?, _ format: String, family: Family = .accessoryInline)
        -> NetworkPresentation
    {
        NetworkPresentation(
            interface: interface, format: PlaceholderFormat(format), formatDown: PlaceholderFormat("E: down {state}"),
            family: family)
    }

    @Test func aRunningInterfaceShowsItsAddresses() {
        let content = Self.presentation(nil, "{interface} {state} {ip} {ipv4} {ipv6}").content(
            Self.state, rates: nil, quality: nil)
        #expect(content.text == "eth0 up 192.0.2.7 192.0.2.7 2001:db8::9", "global IPv6 before link-local")
        #expect(content.tooltip == "eth0 up: 192.0.2.7/24, 2001:db8::9/64, fe80::1/64")
    }

    @Test func downAndAbsentAreStatesShownByFormatDown() {
        let down = Self.presentation("eth1", "{ip}").content(Self.state, rates: nil, quality: nil)
        #expect(down.text == "E: down down" && down.classes == ["down"])
        let absent = Self.presentation("wlan0", "{ip}").content(Self.state, rates: nil, quality: nil)
        #expect(
            absent.text == "E: down absent" && absent.classes == ["absent"] && absent.tooltip == "no interface wlan0")
        let nothing = Self.presentation(nil, "{ip}").content(NetworkState(), rates: nil, quality: nil)
        #expect(nothing.text == "no interface" && nothing.classes == ["absent"])
    }

    @Test func throughputAndQualityWhenSampledAndTheGaugeInSmallFamilies() {
        let format = "{down} {up} {quality}"
        let unsampled = Self.presentation("eth0", format).content(Self.state, rates: nil, quality: nil)
        #expect(unsampled.text == "-- -- --")
        let sampled = Self.presentation("eth0", format, family: .systemSmall).content(
            Self.state, rates: (down: 2048, up: 10), quality: WirelessQuality(link: 35))
        #expect(sampled.text == "▅ 2.0 KiB/s 10.0 B/s 50%", "\(sampled.text)")
        #expect(sampled.percentage == 50)
    }

    @Test func countersAndQualityAreReadFromProc() {
        let dev = """
            Inter-|   Receive                                                |  Transmit
             face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                lo: 1608430   55219    0    0    0     0          0         0  1608430   55219    0    0    0     0       0          0
              eth0: 5000 10 0 0 0 0 0 0 7000 12 0 0 0 0 0 0
            """
        let counters = InterfaceCounters(procNetDev: dev, interface: "eth0")
        #expect(counters == InterfaceCounters(received: 5000, sent: 7000))
        #expect(InterfaceCounters(procNetDev: dev, interface: "eth") == nil)
        #expect(InterfaceCounters(procNetDev: dev + "\n  eth9: 1 2 3", interface: "eth9") == nil, "a cut line")
        let rates = InterfaceCounters(received: 9000, sent: 7000).rates(since: counters!, over: 2)
        #expect(rates.down == 2000 && rates.up == 0)
        #expect(InterfaceCounters(received: 10, sent: 0).rates(since: counters!, over: 1).down == 10, "a reset")
        let wireless = """
            Inter-| sta-|   Quality        |   Discarded packets               | Missed | WE
             face | tus | link level noise |  nwid  crypt   frag  retry   misc | beacon | 22
             wlan0: 0000   56.  -54.  -256        0      0      0      0     12        0
            """
        #expect(WirelessQuality(procNetWireless: wireless, interface: "wlan0")?.percentage == 80)
        #expect(WirelessQuality(procNetWireless: wireless, interface: "eth0") == nil)
    }

    @Test func nl80211AnswersNoSSIDForAnInterfaceThatIsNotWireless() {
        // The loopback interface (index 1 in every namespace): the real kernel refuses it, or has no nl80211.
        #expect(WirelessQuery.ssid(ofInterface: 1) == nil)
        let shown = Self.presentation("eth0", "{ssid}").content(Self.state, rates: nil, quality: nil, ssid: "home")
        #expect(shown.text == "home")
        #expect(Self.presentation("eth0", "{ssid}").content(Self.state, rates: nil, quality: nil).text == "--")
    }

    @Test func checkWarnsOfUnknownPlaceholdersInEachFormat() {
        let kind = NetworkKind()
        var values = kind.defaultConfiguration
        values["format_alt"] = .string("{essid}")
        #expect(kind.referenceProblems(in: values).map(\.parameter) == ["format_alt"])
        #expect(kind.defaultIntent(for: .left) == "toggle_address" && kind.intent(named: "toggle_address") != nil)
    }
}
