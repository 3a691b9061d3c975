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
    /// The bar's standard output, while the daemon writes the bar's lines to it itself (`UpdatesMessage.writeLines`).
    private(set) var handedOver: Int32?
    /// Which of the subscription's connections it was handed over on.
    private var handedOverOn = 0
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

    /// Hands `output`, the bar's standard output, to the daemon, which writes the bar's lines there itself from then
    /// on, so this process sleeps while lines come. Only a pipe (i3bar's, swaybar's) is handed over, and only once
    /// this process has written the protocol's header and a first line; while it is, the line here is not kept.
    func handOver(_ output: Int32) {
        guard handedOver == nil, subscription.isConnected, Self.isPipe(output) else { return }
        guard subscription.say(.writeLines, passing: output) else { return }
        handedOver = output
        handedOverOn = subscription.connectionsMade
    }

    /// i3bar asked to stop (`paused`) or continue the bar's output: said to the daemon while it writes it.
    func pause(_ paused: Bool) {
        if handedOver != nil { _ = subscription.say(paused ? .pause : .resume) }
    }

    private static func isPipe(_ descriptor: Int32) -> Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
    }

    /// Takes in what made `ready` descriptors readable; true when the daemon stopped writing the bar's output, which
    /// is this process's to write again, its current line first.
    func take(_ ready: Set<Int32>) -> Bool {
        if let descriptor = subscription.descriptor, ready.contains(descriptor), let message = subscription.take() {
            take(message)
        }
        var takenBack = false
        // The connection it was handed over on ended (a new one, made at once, has not been handed it).
        if let output = handedOver, subscription.connectionsMade != handedOverOn {
            handedOver = nil
            takenBack = true
            // The daemon made it non-blocking; this process's writes wait for i3bar again.
            try? FileDescriptor.setNonBlocking(output, false)
        }
        if let watch = fileWatch, ready.contains(watch.inotify.fileDescriptor) {
            var lineWatch = watch.line
            if lineWatch.changed(watch.inotify.readEvents()), let read = readFile() { line = read }
            fileWatch = (watch.inotify, lineWatch)
        }
        try? followConnection()
        return takenBack
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
