import Basics
import Glibc

/// A `NETLINK_ROUTE` socket: bound to the link, IPv4/IPv6 address and route multicast groups, it hears every change of
/// the network namespace the process runs in; bound to none, it answers a dump request.
///
/// Sendable for its one hand-over: the first subscriber opens it, and from then on only the listener's thread reads it.
final class RouteSocket: @unchecked Sendable {
    let descriptor: Int32

    /// `RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_IFADDR | RTMGRP_IPV6_ROUTE`: links, their
    /// addresses, and routes (for the default route's interface).
    static let changeGroups: UInt32 = 0x1 | 0x10 | 0x40 | 0x100 | 0x400
    /// The most bytes one datagram is read as: the kernel sends at most a page per message outside dumps, and a dump's
    /// datagrams fit in 32 kB (its `NLMSG_GOODSIZE` is at most 8 kB).
    static let datagramLimit = 32 * 1024

    /// Opens and binds the socket (`socket(2)`, `bind(2)`), non-blocking; the error names the call that failed.
    init(groups: UInt32) throws(RouteSocketError) {
        descriptor = try NetlinkSocket.open(
            type: SOCK_RAW, protocol: 0 /* NETLINK_ROUTE */, address: NetlinkAddress(groups: groups),
            failure: RouteSocketError.init)
    }

    deinit {
        close(descriptor)
    }

    enum Received {
        case messages([RouteMessage])
        /// Nothing more to read now.
        case empty
        /// The kernel dropped messages (`ENOBUFS`) or one was longer than the buffer: read everything again.
        case overrun
    }

    /// Reads one datagram (`recvfrom(2)`); one not from the kernel (port 0) gives no messages.
    func receive(into buffer: inout [UInt8]) -> Received {
        let (count, port) = NetlinkSocket.receive(descriptor, into: &buffer)
        if count < 0 { return errno == ENOBUFS ? .overrun : .empty }
        guard count <= buffer.count else { return .overrun }
        guard port == 0 else { return .messages([]) }
        return .messages(RouteMessage.messages(in: Array(buffer[0..<count])))
    }

    /// The namespace's links, addresses and default routes now: `RTM_GETLINK`, `RTM_GETADDR` and `RTM_GETROUTE`
    /// dumps on a socket of their own, each read to its `NLMSG_DONE`, waiting at most `timeout` for each datagram.
    static func dump(timeout: Int32 = 1000) throws(RouteSocketError) -> NetworkState {
        let socket = try RouteSocket(groups: 0)
        var state = NetworkState()
        var buffer = [UInt8](repeating: 0, count: datagramLimit)
        let requests: [(UInt16, Int)] = [
            (RouteMessage.Kind.getLink, RouteMessage.linkHeaderSize),
            (RouteMessage.Kind.getAddress, RouteMessage.addressHeaderSize),
            (RouteMessage.Kind.getRoute, RouteMessage.routeHeaderSize),
        ]
        for (sequence, (type, headerSize)) in requests.enumerated() {
            let request = RouteMessage.dumpRequest(type: type, headerSize: headerSize, sequence: UInt32(sequence + 1))
            var kernel = NetlinkAddress(groups: 0)
            let sent = withUnsafePointer(to: &kernel) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    retryingInterrupted {
                        sendto(
                            socket.descriptor, request, request.count, 0, address,
                            socklen_t(MemoryLayout<NetlinkAddress>.size))
                    }
                }
            }
            guard sent == request.count else { throw RouteSocketError(call: "sendto", code: errno) }
            reading: while true {
                var ready = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
                guard retryingInterrupted({ poll(&ready, 1, timeout) }) == 1 else {
                    throw RouteSocketError(call: "poll", code: ETIMEDOUT)
                }
                switch socket.receive(into: &buffer) {
                case .empty: continue
                case .overrun: throw RouteSocketError(call: "recvfrom", code: ENOBUFS)
                case .messages(let messages):
                    for message in messages {
                        if case .error(let code) = message, code != 0 {
                            throw RouteSocketError(call: "dump", code: -code)
                        }
                        if message == .done { break reading }
                        state.apply(message)
                    }
                }
            }
        }
        return state
    }
}

/// A system call of an rtnetlink socket failed.
public struct RouteSocketError: Error, Sendable, CustomStringConvertible {
    public var call: String
    public var code: Int32
    public var description: String { "cannot read the network's state: \(call): \(String(cString: strerror(code)))" }
}
