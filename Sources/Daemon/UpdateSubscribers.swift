import FoundationEssentials
import Glibc
import Runtime
import System
import YAML

/// Who is connected to the updates socket (`UpdatesMessage`) and what each asked for: a bar's line, or records to keep
/// current. It holds the sockets and knows who wants what; when to send or write, and what, is the daemon's
/// (`Daemon+Updates`).
struct UpdateSubscribers {
    /// The most connections kept at once: each is a descriptor the loop polls. A bar per output of a few bars, and a few
    /// `show --follow`s, are a handful; beyond this, a new connection is closed at once.
    static let maxConnections = 32
    /// How many connections may wait to be taken: every client that connects between two turns of the loop (an
    /// i3blocks config's `show --follow` blocks starting together) must get through, since a client whose `connect`
    /// fails finds no daemon. Those over `maxConnections` are taken and closed at once.
    static let backlog: Int32 = 128
    /// The longest message a connection may send (`UpdatesMessage.longestFollow` and a little).
    static let maxMessage = 64 * 1024
    /// The most bytes of widget names one connection may follow, over all its `follow` messages: every name of a config
    /// is written in its file, so no config names more. Past it, the connection is closed.
    static let maxFollowedBytes = ConfigLimits.maxFileBytes

    /// The listening socket and the path it was made at; nil when it could not be made.
    private(set) var listener: Listener?
    private var connections: [Int32: Connection] = [:]
    /// What the loop polls for this part: the listener and every connection.
    private(set) var descriptors: [Int32] = []

    struct Listener {
        let socket: PacketSocket
        let path: String
        /// The socket file's device and inode, to tell it from one that replaced it.
        let identity: (device: UInt64, inode: UInt64)
    }

    /// Takes the next connection waiting on the listener (`PacketSocket.accept`); a test makes it fail as a daemon out
    /// of descriptors does.
    var accepting: (PacketSocket) throws(SystemError) -> PacketSocket? = { listener throws(SystemError) in
        try listener.accept()
    }
    /// Whether the listener rests after a failed `accept`, and until when.
    private(set) var acceptPause = AcceptPause()

    /// What a connection asked for; nil until its first message.
    enum Request: Equatable {
        case subscribe(bar: String)
        /// The widgets every `follow` message of the connection named.
        case follow(Set<String>)

        /// Whether this is a bar's subscription, after which the bar may say `write`, `pause` and `resume`.
        var isSubscription: Bool {
            if case .subscribe = self { true } else { false }
        }
    }

    private struct Connection {
        let socket: PacketSocket
        var request: Request?
        /// The bytes of the names its `follow` messages named, each with its separator, as sent.
        var followedBytes = 0
        /// A bar's standard output, which the daemon writes the bar's lines to itself (`UpdatesMessage.writeLines`).
        var output: FileDescriptor?
        /// i3bar asked the bar to stop its output (`UpdatesMessage.pause`).
        var paused = false
        /// A record it follows was written this turn: it is told at the turn's end (`UpdatesMessage.written`).
        var owesTurnEnd = false
    }

    /// A bar subscribed to its line: where its lines go, and whether they are wanted now.
    struct Subscriber {
        let socket: PacketSocket
        /// The bar's standard output, written by the daemon; nil: the line is sent as a message.
        let output: FileDescriptor?
        let paused: Bool
    }

    /// Listens at `path`, replacing a socket left there by an earlier daemon (the caller holds the lock, so none
    /// runs). Something else at `path` is not removed.
    mutating func listen(at path: String) throws(SystemError) {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw SystemError(call: "bind", subject: path, errno: EEXIST)
            }
            _ = unlink(path)
        }
        let socket = try PacketSocket.listen(at: path, backlog: Self.backlog)
        _ = try systemCall("lstat", path) { lstat(path, &info) }
        listener = Listener(socket: socket, path: path, identity: (UInt64(info.st_dev), UInt64(info.st_ino)))
        updateDescriptors()
    }

    /// Whether the listening socket's file is still the one this daemon made.
    var listenerIsInPlace: Bool {
        guard let listener else { return false }
        var info = stat()
        return lstat(listener.path, &info) == 0 && UInt64(info.st_dev) == listener.identity.device
            && UInt64(info.st_ino) == listener.identity.inode
    }

    /// Stops listening; the socket's file is removed if it is still this daemon's.
    mutating func stopListening() {
        if listenerIsInPlace, let listener { _ = unlink(listener.path) }
        listener = nil
        updateDescriptors()
    }

    /// What `acceptWaiting` did.
    struct Intake: Equatable {
        /// The connections over `maxConnections`, closed at once.
        var refused = 0
        /// The failed `accept` that started a rest of the listener (`AcceptPause`), the first of its episode.
        var failedFirst: SystemError?
        /// The failed `accept`s of the episode that an `accept` that worked ended.
        var workedAfter: Int?
    }

    /// Takes every connection waiting on the listener; those over `maxConnections` are closed at once. An `accept` that
    /// fails makes the listener rest until `AcceptPause.pause` after `now`.
    mutating func acceptWaiting(now: Date) -> Intake {
        guard let listener, !acceptPause.isResting else { return Intake() }
        var intake = Intake()
        do throws(SystemError) {
            while let socket = try accepting(listener.socket) {
                guard connections.count < Self.maxConnections else {
                    intake.refused += 1
                    continue
                }
                connections[socket.rawValue] = Connection(socket: socket, request: nil)
            }
            intake.workedAfter = acceptPause.worked()
        } catch {
            if acceptPause.failed(now: now) { intake.failedFirst = error }
        }
        updateDescriptors()
        return intake
    }

    /// The listener is polled again once its rest is over.
    mutating func resumeAcceptingIfDue(now: Date) {
        if acceptPause.resumeIfDue(now: now) { updateDescriptors() }
    }

    /// What `descriptor`'s connection asked for, now that its message said so.
    mutating func record(_ request: Request, of descriptor: Int32) {
        connections[descriptor]?.request = request
    }

    /// Adds `widgets` to those `descriptor`'s connection follows: a client with more names than one message holds sends
    /// several `follow`s. False when it asked for something else, or the names would pass `maxFollowedBytes`.
    mutating func follow(_ widgets: [String], on descriptor: Int32) -> Bool {
        guard var connection = connections.removeValue(forKey: descriptor) else { return false }
        defer { connections[descriptor] = connection }
        var followed: Set<String>
        switch connection.request {
        case nil: followed = []
        case .follow(let widgets)?: followed = widgets
        case .subscribe?: return false
        }
        let bytes = connection.followedBytes + widgets.reduce(0) { $0 + 1 + $1.utf8.count }
        guard bytes <= Self.maxFollowedBytes else { return false }
        // Not held twice while it grows: the set is copied only if another still holds it.
        connection.request = nil
        followed.formUnion(widgets)
        connection.request = .follow(followed)
        connection.followedBytes = bytes
        return true
    }

    /// The daemon writes `descriptor`'s bar's lines to `output` from now on.
    mutating func write(to output: FileDescriptor, for descriptor: Int32) {
        connections[descriptor]?.output = output
    }

    mutating func pause(_ paused: Bool, for descriptor: Int32) {
        connections[descriptor]?.paused = paused
    }

    /// Closes `descriptor`'s connection; returns what it had asked for.
    @discardableResult
    mutating func drop(_ descriptor: Int32) -> Request? {
        let request = connections.removeValue(forKey: descriptor)?.request
        updateDescriptors()
        return request
    }

    /// Closes every connection subscribed to a bar not in `bars`, and returns those bars.
    mutating func dropSubscribers(ofBarsOtherThan bars: Set<String>) -> Set<String> {
        var dropped = Set<String>()
        for (descriptor, connection) in connections {
            guard case .subscribe(let bar)? = connection.request, !bars.contains(bar) else { continue }
            connections[descriptor] = nil
            dropped.insert(bar)
        }
        updateDescriptors()
        return dropped
    }

    /// Closes every connection.
    mutating func dropAll() {
        connections = [:]
        updateDescriptors()
    }

    /// The connection of `descriptor` and what it asked for (nil: not yet); nil when it is no connection.
    func connection(_ descriptor: Int32) -> (socket: PacketSocket, request: Request?)? {
        connections[descriptor].map { ($0.socket, $0.request) }
    }

    /// The subscriber on `descriptor`'s connection; nil when it subscribed to no bar.
    func subscriber(_ descriptor: Int32) -> Subscriber? {
        guard let connection = connections[descriptor], case .subscribe? = connection.request else { return nil }
        return Subscriber(socket: connection.socket, output: connection.output, paused: connection.paused)
    }

    /// The connections subscribed to `bar`.
    func subscribers(of bar: String) -> [Subscriber] {
        connections.values.compactMap {
            $0.request == .subscribe(bar: bar)
                ? Subscriber(socket: $0.socket, output: $0.output, paused: $0.paused) : nil
        }
    }

    func isSubscribed(_ bar: String) -> Bool {
        connections.values.contains { $0.request == .subscribe(bar: bar) }
    }

    /// The bars with at least one subscriber.
    var subscribedBars: Set<String> {
        Set(
            connections.values.compactMap {
                guard case .subscribe(let bar)? = $0.request else { return nil }
                return bar
            })
    }

    /// Whether a connection follows `widget`'s record.
    func isFollowed(_ widget: String) -> Bool {
        connections.values.contains {
            guard case .follow(let widgets)? = $0.request else { return false }
            return widgets.contains(widget)
        }
    }

    /// `widget`'s record was written: the connections that follow it are told at the turn's end.
    mutating func recordWritten(_ widget: String) {
        guard !connections.isEmpty else { return }
        for (descriptor, connection) in connections where !connection.owesTurnEnd {
            guard case .follow(let widgets)? = connection.request, widgets.contains(widget) else { continue }
            connections[descriptor]?.owesTurnEnd = true
        }
    }

    /// `descriptor`'s connection was told that what was written is in place, as the turn's end would tell it.
    mutating func toldEverythingWritten(_ descriptor: Int32) {
        connections[descriptor]?.owesTurnEnd = false
    }

    /// The connections a record they follow was written for since the last call: to be told the turn ended.
    mutating func takeOwedTurnEnds() -> [PacketSocket] {
        var owed: [PacketSocket] = []
        for (descriptor, connection) in connections where connection.owesTurnEnd {
            connections[descriptor]?.owesTurnEnd = false
            owed.append(connection.socket)
        }
        return owed
    }

    var connectionDescriptors: [Int32] { Array(connections.keys) }

    private mutating func updateDescriptors() {
        let listening = acceptPause.isResting ? nil : listener
        descriptors = (listening.map { [$0.socket.rawValue] } ?? []) + connections.keys.sorted()
    }
}
