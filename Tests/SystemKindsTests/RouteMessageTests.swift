import Testing

@testable import SystemKinds

/// The rtnetlink parser on bytes laid out as the kernel sends them: links, addresses and default routes, and every
/// length that lies or is cut short dropped without reading past the bytes.
@Suite("rtnetlink messages")
struct RouteMessageTests {
    static func little(_ value: some FixedWidthInteger) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLittle(value)
        return bytes
    }

    /// An attribute: length, type, value, padded to 4 bytes.
    static func attribute(_ type: UInt16, _ value: [UInt8]) -> [UInt8] {
        let bytes = little(UInt16(4 + value.count)) + little(type) + value
        return bytes + [UInt8](repeating: 0, count: RouteMessage.align(bytes.count) - bytes.count)
    }

    /// A message: `nlmsghdr` with the true length (or `length`), then `body`.
    static func message(_ type: UInt16, _ body: [UInt8], length: UInt32? = nil) -> [UInt8] {
        little(length ?? UInt32(16 + body.count)) + little(type) + little(UInt16(0)) + little(UInt32(0))
            + little(UInt32(0)) + body
    }

    static func link(index: Int32, name: String, flags: UInt32) -> [UInt8] {
        [0, 0] + little(UInt16(1)) + little(index) + little(flags) + little(UInt32(0))
            + attribute(3, Array(name.utf8) + [0])
    }

    static func address(index: UInt32, family: UInt8, bytes: [UInt8], prefix: UInt8, scope: UInt8 = 0) -> [UInt8] {
        [family, prefix, 0, scope] + little(index) + attribute(1, bytes) + attribute(2, bytes)
    }

    @Test func aLinkComesWithItsNameAndFlags() {
        let bytes = Self.message(16, Self.link(index: 3, name: "v0", flags: 0x1 | 0x40 | 0x1000))
        #expect(RouteMessage.messages(in: bytes) == [.link(NetworkLink(index: 3, name: "v0", flags: 0x1041))])
        #expect(NetworkLink(index: 3, name: "v0", flags: 0x1041).isRunning)
        #expect(!NetworkLink(index: 3, name: "v0", flags: 0x1).isRunning, "up without a carrier is down")
        #expect(
            RouteMessage.messages(in: Self.message(17, Self.link(index: 3, name: "v0", flags: 0)))
                == [.linkRemoved(index: 3)])
    }

    @Test func addressesOfBothFamiliesAndTheirText() {
        let v4 = Self.message(20, Self.address(index: 3, family: 2, bytes: [10, 1, 2, 3], prefix: 24))
        let v6 = Self.message(
            20,
            Self.address(
                index: 3, family: 10, bytes: [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [5],
                prefix: 64))
        let parsed = RouteMessage.messages(in: v4 + v6)
        #expect(parsed.count == 2, "two messages in one datagram")
        guard case .address(let first) = parsed[0], case .address(let second) = parsed[1] else {
            Issue.record("not two addresses: \(parsed)")
            return
        }
        #expect(first.text == "10.1.2.3" && first.prefixLength == 24 && first.family == .ipv4)
        #expect(second.text == "2001:db8::5" && second.family == .ipv6)
        #expect(
            NetworkAddress.ipv6Text(
                [0xfe, 0x80] + [UInt8](repeating: 0, count: 6) + [0xdc, 0xa2, 0x55, 0xff, 0xfe, 0xa2, 0x1e, 0xb8])
                == "fe80::dca2:55ff:fea2:1eb8")
        #expect(NetworkAddress.ipv6Text([UInt8](repeating: 0, count: 15) + [1]) == "::1")
        #expect(
            NetworkAddress.ipv6Text([0, 1, 0, 0, 0, 2] + [UInt8](repeating: 0, count: 10)) == "1:0:2::",
            "the longer run")
    }

    @Test func onlyDefaultRoutesOfTheMainTableCount() {
        func route(destinationLength: UInt8, table: UInt8, index: Int32) -> [UInt8] {
            Self.message(
                24,
                [2, destinationLength, 0, 0, table, 3, 0, 1] + Self.little(UInt32(0))
                    + Self.attribute(4, Self.little(index)))
        }
        #expect(
            RouteMessage.messages(in: route(destinationLength: 0, table: 254, index: 3))
                == [.defaultRoute(DefaultRoute(family: .ipv4, interfaceIndex: 3))])
        #expect(RouteMessage.messages(in: route(destinationLength: 24, table: 254, index: 3)).isEmpty)
        #expect(RouteMessage.messages(in: route(destinationLength: 0, table: 255, index: 3)).isEmpty, "local table")
    }

    @Test func doneAndErrorsEndADump() {
        #expect(RouteMessage.messages(in: Self.message(3, Self.little(UInt32(0)))) == [.done])
        #expect(RouteMessage.messages(in: Self.message(2, Self.little(Int32(-1)))) == [.error(code: -1)])
    }

    @Test func aMessageWhoseLengthLiesIsDroppedWithTheRestOfItsDatagram() {
        let good = Self.message(16, Self.link(index: 1, name: "lo", flags: 0x49))
        let body = Self.link(index: 2, name: "v0", flags: 0x41)
        // Past the datagram's end (the good message after it included), shorter than a header, or zero.
        let rest = UInt32(16 + body.count + good.count)
        for length: UInt32 in [0, 15, rest + 1, 0xFFFF_FFFF] {
            let parsed = RouteMessage.messages(in: good + Self.message(16, body, length: length) + good)
            #expect(parsed == [.link(NetworkLink(index: 1, name: "lo", flags: 0x49))], "length \(length)")
        }
    }

    @Test func truncatedBytesNeverParseAndNeverCrash() {
        let whole =
            Self.message(16, Self.link(index: 2, name: "v0", flags: 0x41))
            + Self.message(20, Self.address(index: 2, family: 2, bytes: [192, 0, 2, 1], prefix: 24))
        #expect(RouteMessage.messages(in: whole).count == 2)
        for cut in 0..<whole.count {
            let parsed = RouteMessage.messages(in: Array(whole[..<cut]))
            #expect(parsed.count <= 1, "cut at \(cut)")
        }
    }

    @Test func anAttributeWhoseLengthLiesEndsTheAttributesButNotTheMessage() {
        var body = [UInt8](repeating: 0, count: 16) + Self.attribute(3, Array("v0".utf8) + [0])
        let lying = Self.little(UInt16(200)) + Self.little(UInt16(11)) + [1, 2, 3, 4]
        body += lying
        let parsed = RouteMessage.messages(in: Self.message(16, body))
        #expect(parsed == [.link(NetworkLink(index: 0, name: "v0", flags: 0))])
        let short = [UInt8](repeating: 0, count: 16) + Self.little(UInt16(2)) + Self.little(UInt16(3)) + [0, 0]
        #expect(RouteMessage.messages(in: Self.message(16, short)).isEmpty, "no name read from a 2-byte attribute")
        let wrongSize = Self.message(20, [2, 24, 0, 0] + Self.little(UInt32(2)) + Self.attribute(2, [1, 2, 3]))
        #expect(RouteMessage.messages(in: wrongSize).isEmpty, "an IPv4 address of 3 bytes")
    }

    @Test func aDumpRequestIsAHeaderAndAZeroedFamilyHeader() {
        let request = RouteMessage.dumpRequest(type: 18, headerSize: 16, sequence: 7)
        #expect(request.count == 32 && request.uint32(at: 0) == 32 && request.uint16(at: 4) == 18)
        #expect(request.uint16(at: 6) == 0x301 && request.uint32(at: 8) == 7)
    }

    @Test func theStateFollowsTheMessagesAndPicksTheDefaultLink() {
        var state = NetworkState()
        state.apply(.link(NetworkLink(index: 1, name: "lo", flags: 0x49)))
        state.apply(.link(NetworkLink(index: 2, name: "eth0", flags: 0x1)))
        state.apply(.link(NetworkLink(index: 3, name: "wlan0", flags: 0x41)))
        #expect(state.defaultLink?.name == "wlan0", "the first running one but loopback")
        state.apply(.defaultRoute(DefaultRoute(family: .ipv4, interfaceIndex: 2)))
        #expect(state.defaultLink?.name == "eth0", "the default route's, even while down")
        let address = NetworkAddress(index: 3, family: .ipv4, bytes: [10, 0, 0, 2], prefixLength: 8)
        state.apply(.address(address))
        state.apply(.address(address))
        #expect(state.addresses(of: 3, .ipv4) == [address], "told twice, kept once")
        state.apply(.linkRemoved(index: 3))
        #expect(state.addresses.isEmpty && state.link(named: "wlan0") == nil)
        state.apply(.defaultRouteRemoved(DefaultRoute(family: .ipv4, interfaceIndex: 2)))
        #expect(state.defaultLink?.name == "eth0", "no route, none running: the first but loopback")
    }
}

/// The nl80211 answers the SSID is read from, as bytes (there is no Wi-Fi to ask in the tests): the controller's
/// family id, the interface's SSID, a refusal, and lengths that lie.
@Suite("nl80211 messages")
struct WirelessInterfaceMessageTests {
    typealias Bytes = RouteMessageTests

    /// A generic netlink message of `family`: `nlmsghdr`, `genlmsghdr` (`command`, version 1), then `attributes`.
    static func generic(family: UInt16, command: UInt8, _ attributes: [UInt8], length: UInt32? = nil) -> [UInt8] {
        Bytes.message(family, [command, 1, 0, 0] + attributes, length: length)
    }

    @Test func theControllerNamesNl80211sFamilyID() {
        let answer = Self.generic(
            family: 0x10, command: 1,
            Bytes.attribute(2, Array("nl80211".utf8) + [0]) + Bytes.attribute(1, Bytes.little(UInt16(0x1C))))
        #expect(WirelessInterfaceMessage.familyID(in: answer) == 0x1C)
        #expect(WirelessInterfaceMessage.familyID(in: Bytes.message(2, Bytes.little(Int32(-2)))) == nil, "ENOENT")
    }

    @Test func theInterfaceAnswerCarriesTheSSID() {
        let answer = Self.generic(
            family: 0x1C, command: 7,
            Bytes.attribute(3, Bytes.little(UInt32(3))) + Bytes.attribute(52, Array("café net".utf8)))
        #expect(WirelessInterfaceMessage.ssid(in: answer, family: 0x1C) == "café net")
        #expect(WirelessInterfaceMessage.ssid(in: answer, family: 0x1D) == nil, "another family's message")
        let unassociated = Self.generic(family: 0x1C, command: 7, Bytes.attribute(3, Bytes.little(UInt32(3))))
        #expect(WirelessInterfaceMessage.ssid(in: unassociated, family: 0x1C) == nil)
        let tooLong = Self.generic(family: 0x1C, command: 7, Bytes.attribute(52, [UInt8](repeating: 65, count: 33)))
        #expect(WirelessInterfaceMessage.ssid(in: tooLong, family: 0x1C) == nil, "an SSID is at most 32 bytes")
        let refused = Bytes.message(2, Bytes.little(Int32(-95)) + [UInt8](repeating: 0, count: 16))
        #expect(WirelessInterfaceMessage.answer(in: refused, family: 0x1C) == .refused(code: -95), "EOPNOTSUPP: wired")
    }

    @Test func cutAndLyingAnswersGiveNothing() {
        let answer = Self.generic(family: 0x1C, command: 7, Bytes.attribute(52, Array("home".utf8)))
        for cut in 0..<answer.count {
            #expect(WirelessInterfaceMessage.ssid(in: Array(answer[..<cut]), family: 0x1C) == nil, "cut at \(cut)")
        }
        let lying = Self.generic(
            family: 0x1C, command: 7, Bytes.attribute(52, Array("home".utf8)), length: UInt32(answer.count + 4))
        #expect(WirelessInterfaceMessage.ssid(in: lying, family: 0x1C) == nil)
        var lyingAttribute = answer
        lyingAttribute[20] = 200  // the SSID attribute's length, past the message
        #expect(WirelessInterfaceMessage.ssid(in: lyingAttribute, family: 0x1C) == nil)
    }

    @Test func theRequestsAreWhatNl80211Expects() {
        let request = WirelessInterfaceMessage.interfaceRequest(family: 0x1C, index: 3, sequence: 2)
        #expect(request.count == 28 && request.uint32(at: 0) == 28 && request.uint16(at: 4) == 0x1C)
        #expect(request[16] == 5, "NL80211_CMD_GET_INTERFACE")
        #expect(request.uint16(at: 20) == 8 && request.uint16(at: 22) == 3 && request.uint32(at: 24) == 3)
        let family = WirelessInterfaceMessage.familyRequest(sequence: 1)
        #expect(family.uint16(at: 4) == 0x10 && family[16] == 3 && family.count == 16 + 4 + 12)
    }
}
