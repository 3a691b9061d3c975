import Foundation

/// Sends `text` as one datagram to the Unix socket at `path`, as the kernel multicasts a uevent (the tests point the
/// daemon's uevent listener at such a socket); returns the bytes sent, or -1 with `errno` set.
@discardableResult
public func sendDatagram(_ text: String, to path: String) -> Int {
    let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let bytes = Array(text.utf8)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            sendto(descriptor, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
}
