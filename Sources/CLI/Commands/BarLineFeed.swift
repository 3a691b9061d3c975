import Basics
import Glibc
import Runtime
import System

/// Where `widgetd bar --bar NAME` takes its bar's line from (`BarLine`): the daemon's pushes over the bar socket while
/// it is subscribed, else the line file the daemon keeps while no bar subscribes.
///
/// Not subscribed, it watches the line file (`RecordWatch`) and the socket's path, and subscribes when a daemon starts
/// listening there. Subscribed, it watches no file at all: a message is the only thing that wakes it, and the
/// connection's end says the daemon stopped or let it go. It then reads the file, where a stopping daemon leaves the
/// current line, and subscribes again: at once if the connection had brought lines (the daemon let a slow reader go,
/// or stopped), else only when the socket's path changes or the config is edited, so a daemon that turns it away
/// (a bar its config does not have) is not asked again and again.
final class BarLineFeed {
    let bar: String
    let socketPath: String
    let linePath: String
    /// The bar's line as last received or read; nil while there is none.
    private(set) var line: [UInt8]?
    private var connection: PacketSocket?
    /// Whether the connection brought a line yet.
    private var connectionServed = false
    /// While not subscribed: the line file and the socket's path, on one inotify instance.
    private var watch: (inotify: Inotify, line: RecordWatch, socket: RecordWatch)?
    private let output: String
    private let runtime: String
    /// A message is read into this, at most its size; allocated, not filled, so pages a line never reaches stay
    /// untouched.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 1)
    /// The line file is read into this, grown to fit.
    private var fileBuffer = [UInt8](repeating: 0, count: 4096)

    init(bar: String, output: String, socketPath: String) throws(SystemError) {
        self.bar = bar
        self.output = output
        self.socketPath = socketPath
        runtime = Path.directory(of: socketPath)
        linePath = BarLine.path(of: bar, in: output)
        // The file's line first, so the bar's first line is the daemon's last even before it answers.
        line = readFile()
        if subscribe(), let connection {
            // A running daemon answers within a turn of its loop: its line, not the file's, is the bar's first.
            if (try? Poller.waitUntilReadable(connection.rawValue, timeout: Self.firstLineWait)) == true { _ = take() }
        } else {
            try startWatching()
        }
    }

    /// How long a new bar waits for a daemon's first answer before it shows what it has.
    static let firstLineWait = Duration.milliseconds(500)

    deinit {
        buffer.deallocate()
    }

    /// The descriptor to wait on: the connection's, or the inotify instance's.
    var descriptor: Int32? { connection?.rawValue ?? watch?.inotify.fileDescriptor }

    /// Takes in what made `descriptor` readable; true when the line may have changed.
    func take() -> Bool {
        if let connection { return receive(from: connection) }
        guard let watch else { return false }
        let events = watch.inotify.readEvents()
        var lineWatch = watch.line
        var socketWatch = watch.socket
        let lineChanged = lineWatch.changed(events)
        let socketChanged = socketWatch.changed(events)
        self.watch = (watch.inotify, lineWatch, socketWatch)
        if socketChanged, subscribe() { return true }
        guard lineChanged, let read = readFile() else { return false }
        line = read
        return true
    }

    /// The config was edited: a daemon that turned this bar away may have it now.
    func configEdited() -> Bool {
        connection == nil && subscribe()
    }

    /// Connects and subscribes; false when no daemon listens or it could not be asked. Subscribed, nothing is watched.
    private func subscribe() -> Bool {
        guard let socket = try? PacketSocket.connect(to: socketPath) else { return false }
        let sent = BarLine.subscription(to: bar).withUnsafeBytes { socket.send($0) }
        guard sent == .sent else { return false }
        connection = socket
        connectionServed = false
        watch = nil
        return true
    }

    private func receive(from socket: PacketSocket) -> Bool {
        switch socket.receive(into: buffer) {
        case .message(let count):
            let message = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            guard BarLine.isLine(message) else { return false }
            connectionServed = true
            line = Array(message)
            return true
        case .nothing, .truncated:
            return false
        case .closed:
            let served = connectionServed
            connection = nil
            if served, subscribe() { return false }
            do {
                try startWatching()
            } catch {
                // Nothing to wait on but the config and the clicks: the line stays as it was.
                return false
            }
            // The file may have been written before the watch: looked at once now.
            guard let read = readFile() else { return false }
            line = read
            return true
        }
    }

    private func startWatching() throws(SystemError) {
        do {
            try PrivateDirectory.make(runtime)
        } catch {
            throw SystemError(call: "mkdir", subject: error.path, errno: error.errno)
        }
        let inotify = try Inotify()
        let lineWatch = try RecordWatch(record: linePath, in: output, on: inotify)
        let socketWatch = try RecordWatch(record: socketPath, in: runtime, on: inotify)
        watch = (inotify, lineWatch, socketWatch)
        // A daemon that started listening before the watch: seen now, not at its first change.
        _ = subscribe()
    }

    /// The line in the file; nil while there is none, or what is there is no status line.
    private func readFile() -> [UInt8]? {
        guard let file = try? FileDescriptor.open(linePath, O_RDONLY | O_NONBLOCK) else { return nil }
        var count = 0
        while true {
            if count == fileBuffer.count { fileBuffer += repeatElement(0, count: fileBuffer.count) }
            let read = fileBuffer.withUnsafeMutableBytes { space in
                try? file.read(into: UnsafeMutableRawBufferPointer(rebasing: space[count...]))
            }
            guard let read else { return nil }
            count += read
            // A regular file reads short only at its end: the read that would return 0 is not needed.
            if count < fileBuffer.count { break }
        }
        let bytes = fileBuffer[..<count]
        return BarLine.isLine(bytes) ? Array(bytes) : nil
    }
}
