/// The generic netlink messages the network kind exchanges with nl80211 to learn a Wi-Fi interface's SSID: the
/// controller's answer naming nl80211's family id, and nl80211's answer to `NL80211_CMD_GET_INTERFACE`.
///
/// Both are a `nlmsghdr`, a `genlmsghdr` (command, version, two reserved bytes) and attributes, parsed with the same
/// bounds checks as `RouteMessage`: a length that lies drops the message, never a read past the bytes.
enum WirelessInterfaceMessage {
    /// `GENL_ID_CTRL`: the controller, which names families.
    static let controllerFamily: UInt16 = 0x10
    static let getFamilyCommand: UInt8 = 3  // CTRL_CMD_GETFAMILY
    static let familyIDAttribute: UInt16 = 1  // CTRL_ATTR_FAMILY_ID
    static let familyNameAttribute: UInt16 = 2  // CTRL_ATTR_FAMILY_NAME
    static let getInterfaceCommand: UInt8 = 5  // NL80211_CMD_GET_INTERFACE
    static let interfaceIndexAttribute: UInt16 = 3  // NL80211_ATTR_IFINDEX
    static let ssidAttribute: UInt16 = 52  // NL80211_ATTR_SSID
    static let genericHeaderSize = 4

    /// A request: `nlmsghdr` (`NLM_F_REQUEST`), `genlmsghdr` with `command`, and one attribute.
    static func request(family: UInt16, command: UInt8, attribute: UInt16, value: [UInt8], sequence: UInt32) -> [UInt8]
    {
        var attributeBytes: [UInt8] = []
        attributeBytes.appendLittle(UInt16(4 + value.count))
        attributeBytes.appendLittle(attribute)
        attributeBytes += value
        attributeBytes += [UInt8](repeating: 0, count: RouteMessage.align(attributeBytes.count) - attributeBytes.count)
        var bytes: [UInt8] = []
        bytes.appendLittle(UInt32(RouteMessage.headerSize + genericHeaderSize + attributeBytes.count))
        bytes.appendLittle(family)
        bytes.appendLittle(UInt16(0x0001))  // NLM_F_REQUEST
        bytes.appendLittle(sequence)
        bytes.appendLittle(UInt32(0))
        bytes += [command, 1, 0, 0]
        return bytes + attributeBytes
    }

    /// The request for nl80211's family id.
    static func familyRequest(sequence: UInt32) -> [UInt8] {
        request(
            family: controllerFamily, command: getFamilyCommand, attribute: familyNameAttribute,
            value: Array("nl80211".utf8) + [0], sequence: sequence)
    }

    /// The request for the interface `index`'s state (its SSID among it).
    static func interfaceRequest(family: UInt16, index: Int32, sequence: UInt32) -> [UInt8] {
        var value: [UInt8] = []
        value.appendLittle(UInt32(bitPattern: index))
        return request(
            family: family, command: getInterfaceCommand, attribute: interfaceIndexAttribute, value: value,
            sequence: sequence)
    }

    /// What one answer said.
    enum Answer: Equatable {
        /// The attributes of the first message of `family`, by type.
        case attributes([UInt16: [UInt8]])
        /// `NLMSG_ERROR` with a negative errno (no such family, not a wireless interface).
        case refused(code: Int32)
        /// Nothing that parses.
        case none
    }

    /// The answer in one datagram from the kernel.
    static func answer(in bytes: [UInt8], family: UInt16) -> Answer {
        var offset = 0
        while bytes.count - offset >= RouteMessage.headerSize {
            guard let length = bytes.uint32(at: offset).map(Int.init), let type = bytes.uint16(at: offset + 4),
                length >= RouteMessage.headerSize, length <= bytes.count - offset
            else { return .none }
            let body = Array(bytes[(offset + RouteMessage.headerSize)..<(offset + length)])
            if type == RouteMessage.Kind.error, let code = body.int32(at: 0), code != 0 {
                return .refused(code: code)
            }
            if type == family, body.count >= genericHeaderSize {
                return .attributes(RouteMessage.attributes(in: body, from: genericHeaderSize))
            }
            offset += RouteMessage.align(length)
        }
        return .none
    }

    /// nl80211's family id in the controller's answer.
    static func familyID(in bytes: [UInt8]) -> UInt16? {
        guard case .attributes(let attributes) = answer(in: bytes, family: controllerFamily) else { return nil }
        return attributes[familyIDAttribute]?.uint16(at: 0)
    }

    /// The SSID in nl80211's answer: its bytes as UTF-8 (an SSID is up to 32 bytes of anything; bytes that are not
    /// UTF-8 show as U+FFFD). nil when the interface is associated with nothing or is not wireless.
    static func ssid(in bytes: [UInt8], family: UInt16) -> String? {
        guard case .attributes(let attributes) = answer(in: bytes, family: family),
            let ssid = attributes[ssidAttribute], !ssid.isEmpty, ssid.count <= 32
        else { return nil }
        return String(decoding: ssid, as: UTF8.self)
    }
}
