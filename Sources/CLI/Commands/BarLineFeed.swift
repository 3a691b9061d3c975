import Basics
import Glibc
import Runtime
import System

/// Where `widgetd bar --bar NAME` takes its bar's line from (`BarLine`): the daemon's pushes while it is subscribed
/// on the updates socket (`DaemonSubscription`), else the line file the daemon keeps while no bar subscribes.
///
/// Subscribed, it watches no file at all: a message is the only thing that wakes it. Not subscribed, it watches the
/// line file (`RecordWatch`) too, and reads it when the connection ends, where a stopping daemon leaves the current
/// line.
final class BarLineFeed {
    let linePath: String
    /// The bar's line as last received or read; nil while there is none.
    private(set) var line: [UInt8]?
    private let subscription: DaemonSubscription
    /// While not subscribed: the line file, watched.
    private var fileWatch: (inotify: Inotify, line: RecordWatch)?
    private let output: String
    /// The line file is read into this, grown to fit.
    private var fileBuffer = [UInt8](repeating: 0, count: 4096)

    /// How long a new bar waits for a daemon's first answer before it shows what it has.
    static let firstLineWait = Duration.milliseconds(500)
    /// The longest line taken from the daemon.
    static let lineLimit = 256 * 1024

    init(bar: String, output: String, socketPath: String) throws(SystemError) {
        self.output = output
        linePath = BarLine.path(of: bar, in: output)
        subscription = try DaemonSubscription(
            socketPath: socketPath, request: .subscribe(bar: bar), messageLimit: Self.lineLimit)
        // The file's line first, so the bar's first line is the daemon's last even before it answers.
        line = readFile()
        // A running daemon answers within a turn of its loop: its line, not the file's, is the bar's first.
        if let first = subscription.firstMessage(within: Self.firstLineWait) { take(first) }
        try followConnection()
    }

    /// The descriptors to wait on.
    var descriptors: [Int32] {
        [subscription.descriptor, fileWatch?.inotify.fileDescriptor].compactMap { $0 }
    }

    /// Takes in what made `ready` descriptors readable.
    func take(_ ready: Set<Int32>) {
        if let descriptor = subscription.descriptor, ready.contains(descriptor), let message = subscription.take() {
            take(message)
        }
        if let watch = fileWatch, ready.contains(watch.inotify.fileDescriptor) {
            var lineWatch = watch.line
            if lineWatch.changed(watch.inotify.readEvents()), let read = readFile() { line = read }
            fileWatch = (watch.inotify, lineWatch)
        }
        try? followConnection()
    }

    /// The config was edited: a daemon that turned this bar away may have it now.
    func configEdited() {
        subscription.retry()
        try? followConnection()
    }

    private func take(_ message: [UInt8]) {
        if BarLine.isLine(message) { line = message }
    }

    /// Watches the line file while not subscribed, and only then; when the watch starts, the file is read, as the
    /// connection that ended may have left the line there.
    private func followConnection() throws(SystemError) {
        if subscription.isConnected {
            fileWatch = nil
            return
        }
        guard fileWatch == nil else { return }
        let inotify = try Inotify()
        fileWatch = (inotify, try RecordWatch(record: linePath, in: output, on: inotify))
        if let read = readFile() { line = read }
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
