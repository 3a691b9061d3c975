import Basics
import Glibc
import Runtime
import System

/// A connection to the daemon's updates socket that asks for something (`UpdatesMessage`) and is kept for as long as
/// its owner runs, across the daemon's restarts.
///
/// Connected, its descriptor is the connection's: a message, or the connection's end, wakes it. When the connection
/// ends (the daemon stopped, or let it go), it connects again at once if the connection had brought a message, else it
/// watches the socket's path (`RecordWatch`) and connects when it changes, so a daemon that turns it away is not asked
/// again and again, and a daemon that starts later is found as it starts listening.
final class DaemonSubscription {
    let socketPath: String
    let request: UpdatesMessage
    private(set) var connection: PacketSocket?
    /// How many connections were made: a new one is not the one something was said on before.
    private(set) var connectionsMade = 0
    /// Whether the connection brought a message yet.
    private var served = false
    /// The socket file the connection was made to: a connection that ends before any message was turned away by that
    /// daemon while its file is still there, and else by a daemon that stopped (a newer one may listen already).
    private var connectedTo: SocketFile?
    /// While not connected: the socket's path, watched.
    private var watch: (inotify: Inotify, socket: RecordWatch)?
    /// A message is read into this, at most its size; allocated, not filled, so pages a message never reaches stay
    /// untouched.
    private let buffer: UnsafeMutableRawBufferPointer

    /// Connects, or watches the socket's path when no daemon listens; `messageLimit`: the longest message taken.
    init(socketPath: String, request: UpdatesMessage, messageLimit: Int) throws(SystemError) {
        self.socketPath = socketPath
        self.request = request
        buffer = .allocate(byteCount: messageLimit, alignment: 1)
        if !connect() { try startWatching() }
    }

    deinit {
        buffer.deallocate()
    }

    var isConnected: Bool { connection != nil }

    /// How long a reader waits for the daemon to say the records it follows are current.
    static let answerWait = Duration.seconds(1)
    /// Room for the daemon's answer to `follow`.
    static let answerLimit = 64

    /// Follows `widgets`' records for a reader that reads them once: the connections, open until they are released,
    /// once the daemon said the records are current (or did not answer within `answerWait`). None when no daemon
    /// listens: the records are as the last daemon left them.
    static func follow(_ widgets: [String], socketPath: String) -> [PacketSocket] {
        UpdatesMessage.follows(widgets).compactMap { request in
            guard let socket = try? PacketSocket.connect(to: socketPath),
                request.bytes.withUnsafeBytes({ socket.send($0) }) == .sent
            else { return nil }
            // The answer itself says nothing more: its arrival is the news.
            _ = try? Poller.waitUntilReadable(socket.rawValue, timeout: answerWait)
            return socket
        }
    }

    /// The descriptor to wait on: the connection's, or the watch's.
    var descriptor: Int32? { connection?.rawValue ?? watch?.inotify.fileDescriptor }

    /// Waits up to `timeout` for the daemon's first answer and takes it; nil when none came.
    func firstMessage(within timeout: Duration) -> [UInt8]? {
        guard let connection, (try? Poller.waitUntilReadable(connection.rawValue, timeout: timeout)) == true else {
            return nil
        }
        return take()
    }

    /// Takes in what made `descriptor` readable: the message that came, if one did. After it, `isConnected` says
    /// whether the connection went or came.
    func take() -> [UInt8]? {
        if let connection { return receive(from: connection) }
        guard let watch else { return nil }
        var socketWatch = watch.socket
        let changed = socketWatch.changed(watch.inotify.readEvents())
        self.watch = (watch.inotify, socketWatch)
        if changed { _ = connect() }
        return nil
    }

    /// Says `message` on the connection, with `descriptor` passed along when given; false when not connected or it
    /// could not be said.
    func say(_ message: UpdatesMessage, passing descriptor: Int32? = nil) -> Bool {
        guard let connection else { return false }
        let sent = message.bytes.withUnsafeBytes { bytes in
            descriptor.map { connection.send(bytes, passing: $0) } ?? connection.send(bytes)
        }
        return sent == .sent
    }

    /// Connects again now if not connected (the config was edited: a daemon that turned this away may not now).
    func retry() {
        if connection == nil { _ = connect() }
    }

    /// Connects and asks; false when no daemon listens or it could not be asked. Connected, nothing is watched.
    private func connect() -> Bool {
        let file = SocketFile(at: socketPath)
        guard let socket = try? PacketSocket.connect(to: socketPath) else { return false }
        guard request.bytes.withUnsafeBytes({ socket.send($0) }) == .sent else { return false }
        connection = socket
        connectionsMade += 1
        served = false
        connectedTo = file
        watch = nil
        return true
    }

    /// A socket file's device and inode.
    private struct SocketFile: Equatable {
        let device: UInt64
        let inode: UInt64

        init?(at path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    private func receive(from socket: PacketSocket) -> [UInt8]? {
        switch socket.receive(into: buffer) {
        case .message(let count):
            served = true
            return Array(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        case .nothing, .truncated:
            return nil
        case .closed:
            connection = nil
            if served, connect() { return nil }
            // Turned away, it does not ask the same daemon again until its socket changes.
            let turnedAway = !served && connectedTo != nil && SocketFile(at: socketPath) == connectedTo
            // Nothing to wait on but its owner's other descriptors: it stays unconnected.
            try? startWatching(connecting: !turnedAway)
            return nil
        }
    }

    /// Watches the socket's path; `connecting`: and connects once the watch is in place, for a daemon that started
    /// listening before it (not after the daemon turned this away: it would again).
    private func startWatching(connecting: Bool = true) throws(SystemError) {
        let runtime = Path.directory(of: socketPath)
        do {
            try PrivateDirectory.make(runtime)
        } catch {
            throw SystemError(call: "mkdir", subject: error.path, errno: error.errno)
        }
        let inotify = try Inotify()
        watch = (inotify, try RecordWatch(record: socketPath, in: runtime, on: inotify))
        // A daemon that started listening before the watch: seen now, not at its first change.
        if connecting { _ = connect() }
    }
}
