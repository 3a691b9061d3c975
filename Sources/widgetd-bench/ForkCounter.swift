import Foundation
import Glibc

/// Counts the processes started in the trees of some processes while it listens: the kernel's process events
/// (the netlink proc connector, `NETLINK_CONNECTOR`, group `CN_IDX_PROC`; root only) name every fork with its parent,
/// so a fork and exec as short as `date`'s is seen, which scanning /proc would miss. Threads (a child whose pid is
/// not its thread group's) are not processes and are not counted.
final class ForkCounter: @unchecked Sendable {
    // @unchecked: `members` and `count` are only touched under `lock`.
    private let lock = NSLock()
    private var members: Set<Int32>
    private var count = 0
    private var stopped = false
    private let descriptor: Int32

    private static let netlinkConnector: Int32 = 11
    private static let procGroup: UInt32 = 1
    private static let listen: UInt32 = 1
    private static let forkEvent: UInt32 = 1

    /// Listens for forks in the trees of `roots`; throws when the kernel refuses (not root, no connector).
    init(roots: [pid_t]) throws {
        members = Set(roots)
        let flags = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        descriptor = socket(AF_NETLINK, flags, Self.netlinkConnector)
        guard descriptor >= 0 else { throw BenchError("proc connector: socket: \(String(cString: strerror(errno)))") }
        // sockaddr_nl: family, padding, port (0: the kernel picks), groups.
        var address: (UInt16, UInt16, UInt32, UInt32) = (UInt16(AF_NETLINK), 0, 0, Self.procGroup)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, 12) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw BenchError("proc connector: bind: \(String(cString: strerror(errno))) (root is needed)")
        }
        // nlmsghdr (length, NLMSG_DONE, flags, sequence, port), cn_msg (idx, val, seq, ack, len, flags), the op.
        var message: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { message += $0 } }
        append(UInt32(16 + 20 + 4))
        append(UInt16(3))
        append(UInt16(0))
        append(UInt32(0))
        append(UInt32(0))
        append(UInt32(Self.procGroup))
        append(UInt32(1))
        append(UInt32(0))
        append(UInt32(0))
        append(UInt16(4))
        append(UInt16(0))
        append(Self.listen)
        guard send(descriptor, message, message.count, 0) == message.count else {
            close(descriptor)
            throw BenchError("proc connector: listen: \(String(cString: strerror(errno)))")
        }
        let thread = Thread { [self] in self.pump() }
        thread.start()
    }

    /// Processes started in the trees so far.
    var forks: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private func pump() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 200)
            lock.lock()
            let done = stopped
            lock.unlock()
            if done {
                close(descriptor)
                return
            }
            guard ready.revents & Int16(POLLIN) != 0 else { continue }
            let length = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            guard length > 0 else { continue }
            buffer.withUnsafeBytes { raw in count(in: UnsafeRawBufferPointer(rebasing: raw[0..<length])) }
        }
    }

    /// Each netlink message of one datagram: a fork event's parent and child thread groups, at fixed offsets after
    /// the netlink (16 bytes) and connector (20) headers and the event's what, cpu and timestamp (16).
    private func count(in datagram: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 16 <= datagram.count {
            let length = Int(datagram.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            guard length >= 16, offset + length <= datagram.count else { return }
            let event = offset + 36
            if event + 32 <= offset + length,
                datagram.loadUnaligned(fromByteOffset: event, as: UInt32.self) == Self.forkEvent
            {
                let parentGroup = datagram.loadUnaligned(fromByteOffset: event + 20, as: Int32.self)
                let child = datagram.loadUnaligned(fromByteOffset: event + 24, as: Int32.self)
                let childGroup = datagram.loadUnaligned(fromByteOffset: event + 28, as: Int32.self)
                if child == childGroup {
                    lock.lock()
                    if members.contains(parentGroup) {
                        members.insert(child)
                        count += 1
                    }
                    lock.unlock()
                }
            }
            offset += (length + 3) & ~3
        }
    }
}
