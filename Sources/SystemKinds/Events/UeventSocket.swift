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
        if let testPath {
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(testPath.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
                throw UeventSocketError(call: "bind", code: ENAMETOOLONG)
            }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            unlink(testPath)  // a socket file left by an earlier run refuses bind
            descriptor = try NetlinkSocket.open(
                family: AF_UNIX, type: SOCK_DGRAM, protocol: 0, address: address, failure: UeventSocketError.init)
        } else {
            descriptor = try NetlinkSocket.open(
                type: SOCK_DGRAM, protocol: Self.kobjectUevent, address: NetlinkAddress(groups: Self.kernelGroup),
                failure: UeventSocketError.init)
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
        let (count, port) = NetlinkSocket.receive(descriptor, into: &buffer)
        if count < 0 { return errno == ENOBUFS ? .overrun : .empty }
        guard count <= buffer.count, !fromKernel || port == 0 else { return .skipped }
        return UeventMessage(bytes: buffer[0..<count]).map(Received.message) ?? .skipped
    }
}

/// A system call of the uevent socket failed.
public struct UeventSocketError: Error, Sendable, CustomStringConvertible {
    public var call: String
    public var code: Int32
    public var description: String { "cannot listen for uevents: \(call): \(String(cString: strerror(code)))" }
}
