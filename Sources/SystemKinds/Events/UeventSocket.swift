import Basics
import Glibc

/// The descriptor uevents are read from: the kernel's `NETLINK_KOBJECT_UEVENT` multicast group 1, or, for tests, a
/// Unix datagram socket at the path `WIDGETD_UEVENT_SOCKET` names, which a test sends uevent-shaped datagrams to (the
/// kernel sends no uevent for a sysfs-shaped tree it does not know). Datagrams either way, so one read is one
/// message.
///
/// Sendable for its one hand-over: the first subscriber opens it, and from then on only the listener's thread reads it.
final class UeventSocket: @unchecked Sendable {
    let descriptor: Int32
    /// True for the kernel's socket, whose messages are checked to come from the kernel (port 0).
    private let fromKernel: Bool

    /// The path a test's socket is bound at, or nil for the kernel's: docs/kinds.md, "battery".
    static let testPath: String? = getenv("WIDGETD_UEVENT_SOCKET").map { String(cString: $0) }

    /// `NETLINK_KOBJECT_UEVENT` and the kernel's group (udev rebroadcasts on group 2, with a binary header).
    private static let kobjectUevent: Int32 = 15
    private static let kernelGroup: UInt32 = 1

    /// Opens and binds the socket (`socket(2)`, `bind(2)`), non-blocking; the error names the call that failed.
    init(testPath: String? = UeventSocket.testPath) throws(UeventSocketError) {
        fromKernel = testPath == nil
        let family = testPath == nil ? AF_NETLINK : AF_UNIX
        let flags = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        descriptor = socket(family, flags, testPath == nil ? Self.kobjectUevent : 0)
        guard descriptor >= 0 else { throw UeventSocketError(call: "socket", code: errno) }
        let bound: Int32
        if let testPath {
            unlink(testPath)  // a socket file left by an earlier run refuses bind
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(testPath.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
                close(descriptor)
                throw UeventSocketError(call: "bind", code: ENAMETOOLONG)
            }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        } else {
            var address = NetlinkAddress(groups: Self.kernelGroup)
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<NetlinkAddress>.size))
                }
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw UeventSocketError(call: "bind", code: code)
        }
    }

    deinit {
        close(descriptor)
    }

    /// What one read found.
    enum Received {
        case message(UeventMessage)
        /// A datagram that is no uevent of the kernel's (too long, udev's, another sender's): skipped.
        case skipped
        /// Nothing more to read now.
        case empty
        /// The kernel dropped messages (`ENOBUFS`): whoever listens should read everything again.
        case overrun
    }

    /// Reads one datagram (`recvfrom(2)`), never more than `UeventMessage.byteLimit` bytes; one cut short is skipped.
    func receive(into buffer: inout [UInt8]) -> Received {
        var sender = NetlinkAddress(groups: 0)
        var senderLength = socklen_t(MemoryLayout<NetlinkAddress>.size)
        let count = buffer.withUnsafeMutableBytes { raw in
            withUnsafeMutablePointer(to: &sender) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    retryingInterrupted {
                        recvfrom(descriptor, raw.baseAddress, raw.count, Int32(MSG_TRUNC), address, &senderLength)
                    }
                }
            }
        }
        if count < 0 { return errno == ENOBUFS ? .overrun : .empty }
        guard count <= buffer.count, !fromKernel || sender.port == 0 else { return .skipped }
        return UeventMessage(bytes: buffer[0..<count]).map(Received.message) ?? .skipped
    }
}

/// A system call of the uevent socket failed.
public struct UeventSocketError: Error, Sendable, CustomStringConvertible {
    public var call: String
    public var code: Int32
    public var description: String { "cannot listen for uevents: \(call): \(String(cString: strerror(code)))" }
}

/// `struct sockaddr_nl` of <linux/netlink.h>, which Glibc's module does not bring: family, padding, port, groups.
struct NetlinkAddress {
    var family = sa_family_t(AF_NETLINK)
    var padding: UInt16 = 0
    /// The sender's port: 0 for the kernel.
    var port: UInt32 = 0
    var groups: UInt32
}
