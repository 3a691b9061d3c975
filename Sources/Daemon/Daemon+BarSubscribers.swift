import Basics
import FoundationEssentials
import Output
import Runtime
import System
import Text

/// The bar socket (`BarLine`): `widgetd bar --bar NAME` subscribes to its bar's line and is sent each new one as a
/// message, and while a bar is subscribed its line is not written to a file. A connection that says something other
/// than a subscription to a bar of the running config is closed, and so is a subscriber whose queue is full (it
/// stopped reading): it sees the connection end, and a `widgetd bar` subscribes again and gets the current line.
extension Daemon {
    static let barSocketSource = "bar socket"

    /// Listens on the bar socket; without it, bars read their lines from the files.
    func listenForBars() {
        do {
            try barSubscribers.listen(at: paths.control.bars)
        } catch {
            log(.warning, "cannot listen on \(paths.control.bars): \(error); bars read their lines from files")
        }
    }

    /// Takes in new connections, subscriptions and hang-ups on the bar socket.
    func handleBarSockets(_ ready: Poller.Ready) {
        if let listener = barSubscribers.listener, ready.contains(listener.socket.rawValue) {
            do {
                let refused = try barSubscribers.acceptWaiting()
                if refused > 0 {
                    log(
                        .warning, from: Self.barSocketSource,
                        "refused \(counted(refused, "connection")): \(BarSubscribers.maxConnections) are open")
                }
            } catch {
                log(.error, "cannot take a connection on \(paths.control.bars): \(error)")
            }
        }
        for descriptor in barSubscribers.connectionDescriptors where ready.contains(descriptor) {
            readBarConnection(descriptor)
        }
    }

    private func readBarConnection(_ descriptor: Int32) {
        guard let (socket, subscribed) = barSubscribers.connection(descriptor) else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: BarSubscribers.maxMessage, alignment: 1)
        defer { buffer.deallocate() }
        switch socket.receive(into: buffer) {
        case .nothing:
            return
        case .closed:
            dropBarConnection(descriptor)
        case .truncated,
            .message where subscribed != nil:
            log(.warning, from: Self.barSocketSource, "a connection said more than a subscription: closed it")
            dropBarConnection(descriptor)
        case .message(let count):
            let message = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            guard let bar = BarLine.subscribedBar(message), barLines.bars.contains(where: { $0.name == bar }) else {
                let said = String(decoding: message, as: UTF8.self)
                log(
                    .warning, from: Self.barSocketSource,
                    "'\(LogText.excerpt(said))' subscribes to no bar of the config: closed the connection")
                dropBarConnection(descriptor)
                return
            }
            let first = !barSubscribers.isSubscribed(bar)
            barSubscribers.subscribe(descriptor, to: bar)
            if first { removeLineFile(of: bar) }
            // The current line at once; none yet: the turn's end renders it and sends it to every subscriber.
            if let line = barLines.line(of: bar) {
                send(line, to: [socket], of: bar)
            } else {
                barLines.markChanged(bar)
            }
        }
    }

    /// Closes a connection; the last subscriber of a bar gone, its line goes back to its file.
    private func dropBarConnection(_ descriptor: Int32) {
        guard let bar = barSubscribers.drop(descriptor), !barSubscribers.isSubscribed(bar) else { return }
        writeLineFile(of: bar)
    }

    /// Sends `line` to `subscribers` of `bar`; one that cannot take it is let go.
    func send(_ line: String, to subscribers: [PacketSocket], of bar: String) {
        var line = line
        line.withUTF8 { bytes in
            for socket in subscribers {
                let sent = socket.send(UnsafeRawBufferPointer(bytes))
                guard sent != .sent else { continue }
                let why = sent == .full ? "stopped reading" : "cannot be sent to"
                log(.info, from: Self.barSocketSource, "a subscriber of bar \(bar) \(why): closed it")
                dropBarConnection(socket.rawValue)
            }
        }
    }

    /// The bar's line is passed on by a file again (its last subscriber went, or the daemon stops): its current line
    /// is written there now, or at the turn's end when it has none yet.
    private func writeLineFile(of bar: String) {
        guard let line = barLines.line(of: bar) else {
            barLines.markChanged(bar)
            return
        }
        do {
            try outputs.writeWhole(Array(line.utf8), name: bar, suffix: BarLine.suffix)
        } catch {
            barLines.markChanged(bar)
            if barLines.failed(bar: bar) { log(.error, "bar \(bar): cannot write its line: \(error)") }
        }
    }

    /// A subscribed bar's file would go stale: it is removed while the bar is subscribed.
    private func removeLineFile(of bar: String) {
        do {
            try outputs.remove(name: bar, suffix: BarLine.suffix)
        } catch {
            log(.warning, "bar \(bar): cannot remove its line file: \(error)")
        }
    }

    /// The config's bars are now `bars`: subscribers of bars it no longer has are let go.
    func dropSubscribersOfGoneBars(keeping bars: Set<String>) {
        for bar in barSubscribers.dropSubscribers(ofBarsOtherThan: bars) {
            log(.info, "bar \(bar) left the config: closed its subscriptions")
        }
    }

    /// The daemon stops: each subscribed bar's line goes to its file, for the bar to show until a daemon runs again;
    /// the connections close and the socket goes.
    func stopServingBars() {
        for bar in barSubscribers.subscribedBars { writeLineFile(of: bar) }
        barSubscribers.dropAll()
        barSubscribers.stopListening()
    }

    /// The socket's file went or was replaced (the runtime directory's repair): listens again.
    func repairBarSocket() {
        guard !barSubscribers.listenerIsInPlace else { return }
        barSubscribers.stopListening()
        listenForBars()
        if barSubscribers.listener != nil { log(.warning, "\(paths.control.bars) was deleted: listening on it again") }
    }
}
