import Basics
import Glibc

/// What the listeners' netlink sockets share: opening and binding one, and reading a datagram with its sender. The
/// socket's own meaning (its family, groups, messages and errors) stays with `RouteSocket` and `UeventSocket`.
enum NetlinkSocket {
    /// Opens a non-blocking socket (`socket(2)`) and binds it (`bind(2)`) to `address`, a `sockaddr_*` (a
    /// `NetlinkAddress`, or a test's `sockaddr_un`); closes it if binding fails. The error names the call that failed
    /// and its `errno`.
    static func open<Address, Failure: Error>(
        family: Int32 = AF_NETLINK, type: __socket_type, protocol: Int32, address: Address,
        failure: (_ call: String, _ code: Int32) -> Failure
    ) throws(Failure) -> Int32 {
        let flags = Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let descriptor = socket(family, flags, `protocol`)
        guard descriptor >= 0 else { throw failure("socket", errno) }
        var address = address
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw failure("bind", code)
        }
        return descriptor
    }

    /// Reads one datagram of `descriptor` into `buffer` (`recvfrom(2)` with `MSG_TRUNC`): its whole length, which is
    /// more than `buffer.count` when it was cut short, or -1 with `errno` set; and the sender's port (0: the kernel).
    static func receive(_ descriptor: Int32, into buffer: inout [UInt8]) -> (count: Int, port: UInt32) {
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
        return (count, sender.port)
    }
}

/// `struct sockaddr_nl` of <linux/netlink.h>, which Glibc's module does not bring: family, padding, port, groups.
struct NetlinkAddress {
    var family = sa_family_t(AF_NETLINK)
    var padding: UInt16 = 0
    /// The sender's port: 0 for the kernel.
    var port: UInt32 = 0
    var groups: UInt32
}
