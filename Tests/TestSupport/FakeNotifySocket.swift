import Foundation
import Glibc

/// A datagram socket bound where a test tells the daemon `NOTIFY_SOCKET` is: systemd's side of sd_notify.
public final class FakeNotifySocket {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    let descriptor: Int32
    /// The address as the daemon gets it: a path, or `@name` for an abstract socket.
    public let address: String

    public init(abstract: Bool, in directory: TemporaryDirectory) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        self.descriptor = descriptor
        var name = sockaddr_un()
        name.sun_family = sa_family_t(AF_UNIX)
        let text = abstract ? "@widgetd-test-\(UUID().uuidString)" : directory.url.path + "/notify"
        var bytes = Array(text.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &name.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &name) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw Failure(description: "bind \(text): errno \(errno)")
        }
        address = text
    }

    deinit {
        close(descriptor)
    }

    /// The next message, or nil when none came within `timeout`.
    public func receive(timeout: Duration = .seconds(10)) -> String? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, milliseconds) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Messages until one has `field` as a line, or until none came within `timeout`; `found` says which.
    public func messages(until field: String, timeout: Duration = .seconds(10)) -> (messages: [String], found: Bool) {
        var messages: [String] = []
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline, let message = receive(timeout: deadline - ContinuousClock.now) {
            messages.append(message)
            if message.split(separator: "\n").contains(Substring(field)) { return (messages, true) }
        }
        return (messages, false)
    }
}
