import Basics
import Glibc
import Synchronization

/// Asks nl80211, over generic netlink, which network a Wi-Fi interface is associated with (its SSID).
///
/// Asked when the network kind shows a state and a format names `{ssid}`: association and loss of it change the
/// link's carrier, which rtnetlink announces, so asking at each change needs no timer. A socket per question: the
/// questions are rare, and a socket kept open would be one more descriptor per process for nothing between them.
enum WirelessQuery {
    /// nl80211's family id, once learned (it is fixed while the module stays loaded).
    private static let family = Mutex<UInt16?>(nil)

    /// The SSID of interface `index`, or nil (not wireless, not associated, no nl80211, no answer within 200 ms).
    static func ssid(ofInterface index: Int32) -> String? {
        let descriptor = socket(
            AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 16 /* NETLINK_GENERIC */)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 8192)
        let known = family.withLock { $0 }
        guard
            let id = known
                ?? exchange(WirelessInterfaceMessage.familyRequest(sequence: 1), on: descriptor, into: &buffer)
                .flatMap(WirelessInterfaceMessage.familyID(in:))
        else { return nil }
        family.withLock { $0 = id }
        let request = WirelessInterfaceMessage.interfaceRequest(family: id, index: index, sequence: 2)
        return exchange(request, on: descriptor, into: &buffer).flatMap {
            WirelessInterfaceMessage.ssid(in: $0, family: id)
        }
    }

    /// Sends `request` to the kernel and returns the first datagram of its answer, waiting at most 200 ms.
    private static func exchange(_ request: [UInt8], on descriptor: Int32, into buffer: inout [UInt8]) -> [UInt8]? {
        var kernel = NetlinkAddress(groups: 0)
        let sent = withUnsafePointer(to: &kernel) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                retryingInterrupted {
                    sendto(
                        descriptor, request, request.count, 0, address, socklen_t(MemoryLayout<NetlinkAddress>.size))
                }
            }
        }
        guard sent == request.count else { return nil }
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard retryingInterrupted({ poll(&ready, 1, 200) }) == 1 else { return nil }
        let count = buffer.withUnsafeMutableBytes { raw in
            retryingInterrupted { recv(descriptor, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT)) }
        }
        guard count > 0, count <= buffer.count else { return nil }
        return Array(buffer[0..<count])
    }
}
