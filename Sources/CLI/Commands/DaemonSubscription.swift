import Basics
import Glibc
import Runtime
import System

/// A connection to the daemon's updates socket that asks for something (`UpdatesMessage`: a bar's line, or widgets'
/// records in as many `follow` messages as their names take) and is kept for as long as its owner runs, across the
/// daemon's restarts.
///
/// Connected, its descriptor is the connection's: a message, or the connection's end, wakes it. When the connection
/// ends (the daemon stopped, or let it go), it connects again at once if the connection had brought a message, else it
/// watches the socket's path (`RecordWatch`) and connects when it changes, so a daemon that turns it away is not asked
/// again and again, and a daemon that starts later is found as it starts listening.
final class DaemonSubscription {
    let socketPath: String
    /// What each connection says first, in order.
    let requests: [UpdatesMessage]
    private(set) var connection: PacketSocket?
    /// How many connections were made: a new one is not the one something was said on before.
    private(set) var connectionsMade = 0
    /// Whether the connection brought a message yet.
    private var served = false
    /// Whether the daemon on the connection says `UpdatesMessage.written` at the end of each turn that wrote a record
    /// followed: its answer to `follow` said so. False until that answer comes.
    private(set) var marksTurns = false
    /// The socket file the connection was made to: a connection that ends before any message was turned away by that
    /// daemon while its file is still there, and else by a daemon that stopped (a newer one may listen already).
    private var connectedTo: SocketFile?
    /// While not connected: the socket's path, watched.
    private var watch: (inotify: Inotify, socket: RecordWatch)?
    /// A message is read into this, at most its size; allocated, not filled, so pages a message never reaches stay
    /// untouched.
    private let buffer: UnsafeMutableRawBufferPointer

    /// Connects and says `requests`, or watches the socket's path when no daemon listens; `messageLimit`: the longest
    /// message taken.
    init(socketPath: String, requests: [UpdatesMessage], messageLimit: Int) throws(SystemError) {
        self.socketPath = socketPath
        self.requests = requests
        buffer = .allocate(byteCount: messageLimit, alignment: 1)
        if !connect() { try startWatching() }
    }

    convenience init(socketPath: String, request: UpdatesMessage, messageLimit: Int) throws(SystemError) {
        try self.init(socketPath: socketPath, requests: [request], messageLimit: messageLimit)
    }

    /// Follows `widgets`' records for as long as it runs: their names in as many `follow` messages as they take
    /// (`UpdatesMessage.follows`), once the daemon said the records are current or did not answer within
    /// `answerWait`.
    static func following(_ widgets: [String], socketPath: String) throws(SystemError) -> DaemonSubscription {
        let subscription = try DaemonSubscription(
            socketPath: socketPath, requests: UpdatesMessage.follows(widgets), messageLimit: answerLimit)
        subscription.waitForAnswers(within: answerWait)
        return subscription
    }

    deinit {
        buffer.deallocate()
    }

    var isConnected: Bool { connection != nil }

    /// How long a reader waits for the daemon to say the records it follows are current.
    static let answerWait = Duration.seconds(1)
    /// Room for the daemon's answer to `follow`.
    static let answerLimit = 64
    /// How long a connection's requests may wait, all together, for room in the daemon's queue: the daemon reads a
    /// connection's messages one a turn, and a long list of widgets is several `follow`s of up to 60 KiB.
    static let sayWait = Duration.seconds(2)

    /// Follows `widgets`' records for a reader that reads them once: the connection, open until it is released, once
    /// the daemon said the records are current (or did not answer within `answerWait`). Nil when no daemon listens:
    /// the records are as the last daemon left them.
    static func follow(_ widgets: [String], socketPath: String) -> PacketSocket? {
        let requests = UpdatesMessage.follows(widgets)
        guard !requests.isEmpty, let socket = try? PacketSocket.connect(to: socketPath), say(requests, on: socket)
        else { return nil }
        // The answers themselves say nothing more: their arrival is the news, the last one's that every record is
        // current.
        let deadline = ContinuousClock.now.advanced(by: answerWait)
        var answers = 0
        var answer = [UInt8](repeating: 0, count: answerLimit)
        while answers < requests.count {
            let left = deadline - ContinuousClock.now
            guard left > .zero, (try? Poller.waitUntilReadable(socket.rawValue, timeout: left)) == true else { break }
            switch answer.withUnsafeMutableBytes({ socket.receive(into: $0) }) {
            case .message(let count) where UpdatesMessage.isAnswer(answer[..<count]): answers += 1
            case .message: continue
            case .truncated: answers += 1
            case .nothing: continue
            case .closed: return socket
            }
        }
        return socket
    }

    /// Says `requests` on `socket` in order, each waiting for room while the daemon has not read those before it;
    /// false when one could not be said within `sayWait`.
    private static func say(_ requests: [UpdatesMessage], on socket: PacketSocket) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: sayWait)
        for request in requests {
            let left = max(deadline - ContinuousClock.now, .zero)
            guard request.bytes.withUnsafeBytes({ socket.send($0, waitingUpTo: left) }) == .sent else { return false }
        }
        return true
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

    /// Waits up to `timeout` in all for an answer to each request and takes them: for `follow`s, the last says every
    /// record followed is current.
    func waitForAnswers(within timeout: Duration) {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var answers = 0
        while answers < requests.count, let connection {
            let left = deadline - ContinuousClock.now
            guard left > .zero, (try? Poller.waitUntilReadable(connection.rawValue, timeout: left)) == true else {
                return
            }
            if let message = take(), UpdatesMessage.isAnswer(message) { answers += 1 }
        }
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

    /// Connects and says the requests; false when no daemon listens or they could not be said. Connected, nothing is
    /// watched.
    private func connect() -> Bool {
        let file = SocketFile(at: socketPath)
        guard let socket = try? PacketSocket.connect(to: socketPath), Self.say(requests, on: socket) else {
            return false
        }
        connection = socket
        connectionsMade += 1
        served = false
        marksTurns = false
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
            let message = Array(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            if UpdatesMessage.isAnswer(message) { marksTurns = message.elementsEqual(UpdatesMessage.current.utf8) }
            return message
        case .nothing, .truncated:
            return nil
        case .closed:
            connection = nil
            marksTurns = false
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
