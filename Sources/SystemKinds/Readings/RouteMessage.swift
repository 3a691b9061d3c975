/// One rtnetlink message of the kinds the network kind follows, parsed from the kernel's bytes: a link (`ifinfomsg`),
/// an address (`ifaddrmsg`) or a route (`rtmsg`), added or removed, or the end of a dump.
///
/// Parsed by hand, as <linux/netlink.h> and <linux/rtnetlink.h> lay them out (host byte order, every header and
/// attribute aligned to 4 bytes). Every length is checked against what is left: a message whose length lies is
/// dropped with the rest of its datagram (its end is unknown), an attribute whose length lies ends its message's
/// attributes, and nothing is ever read past the bytes received.
public enum RouteMessage: Sendable, Hashable {
    case link(NetworkLink)
    case linkRemoved(index: Int32)
    case address(NetworkAddress)
    case addressRemoved(NetworkAddress)
    /// A route of the main table; only default routes (`dst_len` 0) are kept.
    case defaultRoute(DefaultRoute)
    case defaultRouteRemoved(DefaultRoute)
    /// `NLMSG_DONE`: a dump is complete.
    case done
    /// `NLMSG_ERROR`: 0 acknowledges a request, a negative errno refuses it.
    case error(code: Int32)

    /// Message types of <linux/netlink.h> and <linux/rtnetlink.h>.
    enum Kind {
        static let error: UInt16 = 2
        static let done: UInt16 = 3
        static let overrun: UInt16 = 4
        static let newLink: UInt16 = 16
        static let deleteLink: UInt16 = 17
        static let getLink: UInt16 = 18
        static let newAddress: UInt16 = 20
        static let deleteAddress: UInt16 = 21
        static let getAddress: UInt16 = 22
        static let newRoute: UInt16 = 24
        static let deleteRoute: UInt16 = 25
        static let getRoute: UInt16 = 26
    }

    static let headerSize = 16  // struct nlmsghdr
    static let linkHeaderSize = 16  // struct ifinfomsg
    static let addressHeaderSize = 8  // struct ifaddrmsg
    static let routeHeaderSize = 12  // struct rtmsg

    /// The messages of one datagram, in order; a message of another type (or one too short for its header) is
    /// skipped, and one whose `nlmsg_len` runs past the datagram ends it.
    public static func messages(in bytes: [UInt8]) -> [RouteMessage] {
        var messages: [RouteMessage] = []
        var offset = 0
        while bytes.count - offset >= headerSize {
            guard let length = bytes.uint32(at: offset).map(Int.init), let type = bytes.uint16(at: offset + 4),
                length >= headerSize, length <= bytes.count - offset
            else { break }
            let body = Array(bytes[(offset + headerSize)..<(offset + length)])
            if let message = message(type: type, body: body) { messages.append(message) }
            offset += align(length)
        }
        return messages
    }

    /// The bytes of a dump request (`RTM_GETLINK`, `RTM_GETADDR`, `RTM_GETROUTE`) for every family: a `nlmsghdr`
    /// with `NLM_F_REQUEST | NLM_F_DUMP` and a zeroed family header of `headerSize` bytes.
    static func dumpRequest(type: UInt16, headerSize familyHeaderSize: Int, sequence: UInt32) -> [UInt8] {
        let length = headerSize + familyHeaderSize
        var bytes: [UInt8] = []
        bytes.appendLittle(UInt32(length))
        bytes.appendLittle(type)
        bytes.appendLittle(UInt16(0x0001 | 0x0300))  // NLM_F_REQUEST | NLM_F_DUMP
        bytes.appendLittle(sequence)
        bytes.appendLittle(UInt32(0))  // the kernel fills in the port
        bytes += [UInt8](repeating: 0, count: familyHeaderSize)
        return bytes
    }

    static func align(_ length: Int) -> Int { (length + 3) & ~3 }

    private static func message(type: UInt16, body: [UInt8]) -> RouteMessage? {
        switch type {
        case Kind.done: return .done
        case Kind.error: return body.int32(at: 0).map { .error(code: $0) }
        case Kind.newLink, Kind.deleteLink:
            guard let link = NetworkLink(body: body) else { return nil }
            return type == Kind.newLink ? .link(link) : .linkRemoved(index: link.index)
        case Kind.newAddress, Kind.deleteAddress:
            guard let address = NetworkAddress(body: body) else { return nil }
            return type == Kind.newAddress ? .address(address) : .addressRemoved(address)
        case Kind.newRoute, Kind.deleteRoute:
            guard let route = DefaultRoute(body: body) else { return nil }
            return type == Kind.newRoute ? .defaultRoute(route) : .defaultRouteRemoved(route)
        default: return nil
        }
    }

    /// The attributes (`struct rtattr`: length, type, value) that follow a family header, by type; the
    /// `NLA_F_NESTED` and `NLA_F_NET_BYTEORDER` bits are masked off. An attribute whose length is shorter than its
    /// header or runs past the message ends the list; the ones before it are kept.
    static func attributes(in body: [UInt8], from start: Int) -> [UInt16: [UInt8]] {
        var attributes: [UInt16: [UInt8]] = [:]
        var offset = start
        while body.count - offset >= 4 {
            guard let length = body.uint16(at: offset).map(Int.init), let type = body.uint16(at: offset + 2),
                length >= 4, length <= body.count - offset
            else { break }
            attributes[type & 0x3FFF] = Array(body[(offset + 4)..<(offset + length)])
            offset += align(length)
        }
        return attributes
    }
}

/// A network interface as `RTM_NEWLINK` describes it.
public struct NetworkLink: Sendable, Hashable {
    public var index: Int32
    public var name: String
    /// `ifi_flags`: `IFF_UP`, `IFF_RUNNING`, `IFF_LOOPBACK`…
    public var flags: UInt32

    static let up: UInt32 = 0x1
    static let loopback: UInt32 = 0x8
    static let running: UInt32 = 0x40

    public init(index: Int32, name: String, flags: UInt32) {
        self.index = index
        self.name = name
        self.flags = flags
    }

    /// Administratively up and with a carrier (`IFF_RUNNING`): what i3status calls up.
    public var isRunning: Bool { flags & Self.up != 0 && flags & Self.running != 0 }
    public var isLoopback: Bool { flags & Self.loopback != 0 }

    /// `ifinfomsg` (family, pad, type, index, flags, change) and its `IFLA_IFNAME`; nil without a name.
    init?(body: [UInt8]) {
        guard body.count >= RouteMessage.linkHeaderSize, let index = body.int32(at: 4),
            let flags = body.uint32(at: 8)
        else { return nil }
        let attributes = RouteMessage.attributes(in: body, from: RouteMessage.linkHeaderSize)
        guard let nameBytes = attributes[3 /* IFLA_IFNAME */] else { return nil }
        let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
        guard !name.isEmpty else { return nil }
        self.init(index: index, name: name, flags: flags)
    }
}

/// An IPv4 or IPv6 address of an interface, as `RTM_NEWADDR` gives it.
public struct NetworkAddress: Sendable, Hashable {
    public enum Family: Sendable, Hashable {
        case ipv4
        case ipv6
    }

    public var index: Int32
    public var family: Family
    /// 4 or 16 bytes, in network order.
    public var bytes: [UInt8]
    public var prefixLength: UInt8
    /// `ifa_scope`: 0 global, 253 link, 254 host.
    public var scope: UInt8

    public init(index: Int32, family: Family, bytes: [UInt8], prefixLength: UInt8, scope: UInt8 = 0) {
        self.index = index
        self.family = family
        self.bytes = bytes
        self.prefixLength = prefixLength
        self.scope = scope
    }

    /// `ifaddrmsg` (family, prefix length, flags, scope, index) and its address: `IFA_LOCAL` (the interface's own
    /// address; `IFA_ADDRESS` is the peer's on a point-to-point link), else `IFA_ADDRESS`. nil for another family or
    /// an address of the wrong size.
    init?(body: [UInt8]) {
        guard body.count >= RouteMessage.addressHeaderSize, let index = body.uint32(at: 4) else { return nil }
        let family: Family
        switch body[0] {
        case 2: family = .ipv4  // AF_INET
        case 10: family = .ipv6  // AF_INET6
        default: return nil
        }
        let attributes = RouteMessage.attributes(in: body, from: RouteMessage.addressHeaderSize)
        guard let bytes = attributes[2 /* IFA_LOCAL */] ?? attributes[1 /* IFA_ADDRESS */],
            bytes.count == (family == .ipv4 ? 4 : 16)
        else { return nil }
        self.init(
            index: Int32(bitPattern: index), family: family, bytes: bytes, prefixLength: body[1], scope: body[3])
    }

    /// `192.0.2.1` or `2001:db8::1`, as `inet_ntop` writes them (RFC 5952 for IPv6).
    public var text: String {
        family == .ipv4 ? bytes.map(String.init).joined(separator: ".") : Self.ipv6Text(bytes)
    }

    /// RFC 5952: lower-case hex groups without leading zeros, the longest run of two or more zero groups (the first
    /// of equal ones) as `::`.
    static func ipv6Text(_ bytes: [UInt8]) -> String {
        let groups = (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
        var best: Range<Int>?
        var start: Int?
        for index in 0...8 {
            if index < 8, groups[index] == 0 {
                if start == nil { start = index }
            } else if let first = start {
                if index - first >= 2, index - first > (best?.count ?? 0) { best = first..<index }
                start = nil
            }
        }
        let hex = groups.map { String($0, radix: 16) }
        guard let best else { return hex.joined(separator: ":") }
        return hex[..<best.lowerBound].joined(separator: ":") + "::" + hex[best.upperBound...].joined(separator: ":")
    }
}

/// A default route of the main table: the interface the system sends to the rest of the world through.
public struct DefaultRoute: Sendable, Hashable {
    public var family: NetworkAddress.Family
    public var interfaceIndex: Int32
    public var priority: UInt32

    public init(family: NetworkAddress.Family, interfaceIndex: Int32, priority: UInt32 = 0) {
        self.family = family
        self.interfaceIndex = interfaceIndex
        self.priority = priority
    }

    /// `rtmsg` (family, dst_len, src_len, tos, table, protocol, scope, type, flags) with `RTA_OIF`: nil unless it is
    /// a unicast route to everywhere (`dst_len` 0) in the main table (`RTA_TABLE` overrides the 8-bit field).
    init?(body: [UInt8]) {
        guard body.count >= RouteMessage.routeHeaderSize else { return nil }
        let family: NetworkAddress.Family
        switch body[0] {
        case 2: family = .ipv4
        case 10: family = .ipv6
        default: return nil
        }
        let attributes = RouteMessage.attributes(in: body, from: RouteMessage.routeHeaderSize)
        let table = attributes[15 /* RTA_TABLE */]?.uint32(at: 0) ?? UInt32(body[4])
        guard body[1] == 0, table == 254 /* RT_TABLE_MAIN */, body[7] == 1 /* RTN_UNICAST */,
            let index = attributes[4 /* RTA_OIF */]?.int32(at: 0)
        else { return nil }
        self.init(
            family: family, interfaceIndex: index, priority: attributes[6 /* RTA_PRIORITY */]?.uint32(at: 0) ?? 0)
    }
}

extension [UInt8] {
    /// The little-endian (host order on every Linux Swift runs on) integer at `offset`, or nil past the end.
    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, count - offset >= 2 else { return nil }
        return UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    func uint32(at offset: Int) -> UInt32? {
        guard offset >= 0, count - offset >= 4 else { return nil }
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(self[offset + $1]) << (8 * $1) }
    }

    func int32(at offset: Int) -> Int32? { uint32(at: offset).map { Int32(bitPattern: $0) } }

    mutating func appendLittle(_ value: some FixedWidthInteger) {
        for shift in stride(from: 0, to: value.bitWidth, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
}
