import Basics
internal import CLinux
import Glibc

/// A Unix-domain `SOCK_SEQPACKET` socket: connection-oriented like a stream, so either end sees the other go, and
/// message-oriented like a datagram, so each `send` arrives as one whole message and the reader needs no framing.
/// Every socket is non-blocking and close-on-exec.
public final class PacketSocket: Sendable {
    public let descriptor: FileDescriptor
    public var rawValue: Int32 { descriptor.rawValue }

    private init(owning descriptor: Int32) {
        self.descriptor = FileDescriptor(owning: descriptor)
    }

    private static func make() throws(SystemError) -> PacketSocket {
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        return PacketSocket(owning: try systemCall("socket") { socket(AF_UNIX, type, 0) })
    }

    /// A socket listening at `path`, which must not exist. Its file gets mode 0600: only the user connects.
    ///
    /// The file appears at `path` only once the socket listens: it is bound under a temporary name beside it and
    /// renamed. A client that waits for the file to appear (inotify) and connects then would otherwise be refused
    /// between `bind` and `listen`, and see no change after.
    public static func listen(at path: String, backlog: Int32 = 16) throws(SystemError) -> PacketSocket {
        let socket = try make()
        let temporary = Path.directory(of: path) + "/.\(getpid()).socket"
        _ = unlink(temporary)
        _ = try systemCall("bind", temporary) {
            withAddress(of: temporary) { address, length in bind(socket.rawValue, address, length) }
        }
        do throws(SystemError) {
            _ = try systemCall("chmod", temporary) { chmod(temporary, 0o600) }
            _ = try systemCall("listen", temporary) { Glibc.listen(socket.rawValue, backlog) }
            _ = try systemCall("rename", path) { rename(temporary, path) }
        } catch {
            _ = unlink(temporary)
            throw error
        }
        return socket
    }

    /// A socket connected to the one listening at `path`. The connection is made at once or refused: a Unix socket's
    /// `connect` does not wait, except when the listener's backlog is full (`EAGAIN`).
    public static func connect(to path: String) throws(SystemError) -> PacketSocket {
        let socket = try make()
        _ = try systemCall("connect", path) {
            withAddress(of: path) { address, length in Glibc.connect(socket.rawValue, address, length) }
        }
        return socket
    }

    /// The next connection waiting on this listening socket; nil when none is.
    public func accept() throws(SystemError) -> PacketSocket? {
        let accepted = retryingInterrupted { widgetd_accept_nonblocking(rawValue) }
        guard accepted < 0 else { return PacketSocket(owning: accepted) }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK || code == ECONNABORTED { return nil }
        throw SystemError(call: "accept4", errno: code)
    }

    /// What a `send` did.
    public enum Sent: Equatable, Sendable {
        case sent
        /// The other end's queue is full: it has not read what it was sent.
        case full
        case failed(errno: Int32)
    }

    /// Sends `bytes` as one message, without waiting and without `SIGPIPE` when the other end is gone.
    public func send(_ bytes: UnsafeRawBufferPointer) -> Sent {
        let sent = retryingInterrupted {
            Glibc.send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
        }
        if sent >= 0 { return .sent }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK ? .full : .failed(errno: code)
    }

    /// Sends `bytes` as one message, waiting up to `timeout` for room while the other end's queue is full (it has not
    /// read the messages before).
    public func send(_ bytes: UnsafeRawBufferPointer, waitingUpTo timeout: Duration) -> Sent {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let sent = send(bytes)
            let left = deadline - ContinuousClock.now
            guard sent == .full, left > .zero else { return sent }
            var room = pollfd(fd: rawValue, events: Int16(POLLOUT), revents: 0)
            _ = retryingInterrupted { poll(&room, 1, Poller.milliseconds(left)) }
        }
    }

    /// What a `receive` found.
    public enum Received: Equatable, Sendable {
        /// One message, its first `count` bytes in the buffer.
        case message(count: Int)
        /// A message longer than the buffer: `length` bytes, cut and dropped.
        case truncated(length: Int)
        /// Nothing to read now.
        case nothing
        /// The other end closed the connection (or it failed): nothing more will come.
        case closed
    }

    /// Takes the next message into `buffer`, without waiting.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> Received {
        // MSG_TRUNC makes a Unix socket return the message's whole length, so a cut message is told from one that fit.
        let length = retryingInterrupted {
            recv(rawValue, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT | MSG_TRUNC))
        }
        if length > 0 { return length > buffer.count ? .truncated(length: length) : .message(count: length) }
        if length == 0 { return .closed }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK ? .nothing : .closed
    }

    /// Sends `bytes` as one message with `descriptor` passed along (`SCM_RIGHTS`): the other end gets its own copy.
    public func send(_ bytes: UnsafeRawBufferPointer, passing descriptor: Int32) -> Sent {
        let sent = retryingInterrupted {
            widgetd_send_with_descriptor(rawValue, bytes.baseAddress, bytes.count, descriptor)
        }
        if sent >= 0 { return .sent }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK ? .full : .failed(errno: code)
    }

    /// Takes the next message into `buffer`, without waiting, with the descriptor passed along with it, if one was.
    public func receiveWithDescriptor(into buffer: UnsafeMutableRawBufferPointer) -> (Received, FileDescriptor?) {
        var passed: Int32 = -1
        let length = retryingInterrupted {
            widgetd_receive_with_descriptor(rawValue, buffer.baseAddress, buffer.count, &passed)
        }
        let descriptor = passed >= 0 ? FileDescriptor(owning: passed) : nil
        if length > 0 {
            return (length > buffer.count ? .truncated(length: length) : .message(count: length), descriptor)
        }
        if length == 0 { return (.closed, nil) }
        let code = errno
        return (code == EAGAIN || code == EWOULDBLOCK ? .nothing : .closed, nil)
    }

    /// `body`'s result with `path` as a `sockaddr_un`; a path too long for one is -1 with `errno` `ENAMETOOLONG`.
    private static func withAddress(of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        // The terminating NUL must fit too (`sockaddr_un()` zeroed it).
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            errno = ENAMETOOLONG
            return -1
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + 1)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
