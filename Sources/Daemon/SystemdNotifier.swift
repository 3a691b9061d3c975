import Basics
import FoundationEssentials
import Glibc

/// Tells systemd how the service is doing: sd_notify(3)'s protocol, written directly.
///
/// systemd passes `NOTIFY_SOCKET`, the address of an `AF_UNIX` datagram socket: a path, or an abstract name written
/// with a leading `@`. Each message is one datagram of `KEY=VALUE` lines. libsystemd is not linked for this: the
/// protocol is a documented stable interface, and one `sendto` per message is all it takes.
///
/// Sending never blocks the loop (`MSG_DONTWAIT`) and a failure is only counted: a manager that went away must not
/// stop the daemon.
final class SystemdNotifier {
    private let descriptor: Int32
    private var address = sockaddr_un()
    private let addressLength: socklen_t
    /// Messages that could not be sent.
    private(set) var failures = 0

    /// A notifier for `NOTIFY_SOCKET`, or nil when it is unset, not a path or abstract name, too long, or a socket
    /// cannot be made.
    init?(environment: [String: String]) {
        guard let name = environment["NOTIFY_SOCKET"], let first = name.first, first == "/" || first == "@" else {
            return nil
        }
        var bytes = Array(name.utf8)
        if first == "@" { bytes[0] = 0 }  // an abstract name: a leading NUL, no terminating one
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: bytes)
        }
        // A path counts its terminating NUL (zeroed by sockaddr_un()); an abstract name is exactly its bytes.
        let pathLength = first == "@" ? bytes.count : bytes.count + 1
        addressLength = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + pathLength)
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
    }

    deinit {
        close(descriptor)
    }

    /// Sends `fields` as one message; false when it could not be sent.
    @discardableResult
    func send(_ fields: [String]) -> Bool {
        let message = Array(fields.joined(separator: "\n").utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { bytes in
                    retryingInterrupted {
                        sendto(
                            descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL),
                            socketAddress, addressLength)
                    }
                }
            }
        }
        guard sent == message.count else {
            failures += 1
            return false
        }
        return true
    }

    /// `CLOCK_MONOTONIC` in microseconds, for `RELOADING=1`'s `MONOTONIC_USEC=`, which systemd uses to tell this
    /// reload from an older one.
    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }
}
