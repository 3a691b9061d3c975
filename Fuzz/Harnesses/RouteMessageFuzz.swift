@testable import SystemKinds

/// Any bytes as a datagram from the kernel's rtnetlink or nl80211 socket: parsed, applied to a network state and
/// shown.
///
/// Nothing may be read past the bytes (AddressSanitizer and Swift's bounds checks would stop the run), each message
/// takes at least a header's 16 bytes, and every address parsed has the size of its family.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let messages = RouteMessage.messages(in: bytes)
    if messages.count > size / RouteMessage.headerSize { fatalError("\(messages.count) messages in \(size) bytes") }
    var state = NetworkState()
    for message in messages {
        state.apply(message)
        if case .address(let address) = message, address.bytes.count != (address.family == .ipv4 ? 4 : 16) {
            fatalError("an address of \(address.bytes.count) bytes")
        }
    }
    for address in state.addresses { _ = address.text }
    if let link = state.defaultLink { _ = state.addresses(of: link.index, .ipv6) }
    _ = WirelessInterfaceMessage.familyID(in: bytes)
    if let ssid = WirelessInterfaceMessage.ssid(in: bytes, family: 0x1C), ssid.utf8.count > 32 * 3 {
        fatalError("an SSID of \(ssid.utf8.count) bytes")
    }
    return 0
}
