import Basics
import FoundationEssentials
import Glibc
import Output
import Runtime
import System
import Text

/// The updates socket (`UpdatesMessage`): `widgetd bar --bar NAME` subscribes to its bar's line and is sent each new
/// one as a message, and while a bar is subscribed its line is not written to a file; `widgetd show`, `list` and
/// `widgetd bar --widgets` follow widgets' records, which for a sampled widget are written only while followed. A
/// connection that says something else, or subscribes to a bar the running config lacks, is closed, and so is a
/// subscriber whose queue is full (it stopped reading): it sees the connection end, and subscribes again.
extension Daemon {
    static let updatesSource = "updates socket"

    /// Listens on the updates socket; without it, bars read their lines from files and every record is written.
    func listenForUpdates() {
        do {
            try updateSubscribers.listen(at: paths.control.updates)
        } catch {
            log(.warning, "cannot listen on \(paths.control.updates): \(error); bars read their lines from files")
        }
    }

    /// Takes in new connections, their messages and hang-ups.
    func handleUpdateSockets(_ ready: Poller.Ready) {
        if let listener = updateSubscribers.listener, ready.contains(listener.socket.rawValue) {
            takeConnections()
        }
        for descriptor in updateSubscribers.connectionDescriptors where ready.contains(descriptor) {
            readConnection(descriptor)
        }
    }

    /// Takes the connections waiting on the listener. A failed `accept` makes the listener rest (`AcceptPause`), and
    /// is logged once for the failures in a row it starts.
    private func takeConnections() {
        let intake = updateSubscribers.acceptWaiting(now: clock.now)
        if intake.refused > 0 {
            log(
                .warning, from: Self.updatesSource,
                "refused \(counted(intake.refused, "connection")): \(UpdateSubscribers.maxConnections) are open")
        }
        if let error = intake.failedFirst {
            log(
                .error,
                "cannot take a connection on \(paths.control.updates): \(error); trying again every "
                    + "\(Int(AcceptPause.pause)) s meanwhile")
        }
        if let failures = intake.workedAfter {
            log(.info, "taking connections on \(paths.control.updates) again, after \(counted(failures, "failure"))")
        }
    }

    /// The listener's rest after a failed `accept` is over: it is polled again.
    func resumeTakingConnectionsWhenDue(now: Date) {
        updateSubscribers.resumeAcceptingIfDue(now: now)
    }

    private func readConnection(_ descriptor: Int32) {
        guard let (socket, asked) = updateSubscribers.connection(descriptor) else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: UpdateSubscribers.maxMessage, alignment: 1)
        defer { buffer.deallocate() }
        let (received, passed) = socket.receiveWithDescriptor(into: buffer)
        switch received {
        case .nothing:
            return
        case .closed:
            dropConnection(descriptor)
        case .truncated(let length):
            log(
                .warning, from: Self.updatesSource,
                "a connection sent \(counted(length, "byte")), over the \(UpdateSubscribers.maxMessage) a message may "
                    + "have: closed it")
            dropConnection(descriptor)
        case .message(let count) where asked?.isSubscription == true:
            takeBarsWord(UnsafeRawBufferPointer(rebasing: buffer[..<count]), passing: passed, on: descriptor)
        case .message(let count):
            let message = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            switch UpdatesMessage(message) {
            case .subscribe(let bar)? where asked == nil && barLines.bars.contains(where: { $0.name == bar }):
                subscribe(descriptor, socket, to: bar)
            case .follow(let widgets)?:
                // Each `follow` adds its widgets and is answered on its own: the answer to the last one a client
                // sent says every record it follows is current.
                guard updateSubscribers.follow(widgets, on: descriptor) else {
                    log(
                        .warning, from: Self.updatesSource,
                        "a connection followed over \(counted(UpdateSubscribers.maxFollowedBytes, "byte")) of widget "
                            + "names: closed it")
                    dropConnection(descriptor)
                    return
                }
                for name in widgets where recordsBehind.contains(name) { writeRecord(of: name) }
                send(Array(UpdatesMessage.current.utf8), to: socket, saying: "the records are current")
                // The answer says what `written` would: every record written so far is in place.
                updateSubscribers.toldEverythingWritten(descriptor)
            case _ where asked != nil:
                log(.warning, from: Self.updatesSource, "a connection said more than one request: closed it")
                dropConnection(descriptor)
            case .subscribe?, .writeLines?, .pause?, .resume?, nil:
                let said = String(decoding: message, as: UTF8.self)
                log(
                    .warning, from: Self.updatesSource,
                    "'\(LogText.excerpt(said))' asks for no bar or widgets of the config: closed the connection")
                dropConnection(descriptor)
            }
        }
    }

    private func subscribe(_ descriptor: Int32, _ socket: PacketSocket, to bar: String) {
        let first = !updateSubscribers.isSubscribed(bar)
        updateSubscribers.record(.subscribe(bar: bar), of: descriptor)
        if first { removeLineFile(of: bar) }
        sendCurrentLine(of: bar, to: descriptor)
    }

    /// The current line to the subscriber on `descriptor`; none yet: the turn's end renders it and sends it to every
    /// subscriber.
    private func sendCurrentLine(of bar: String, to descriptor: Int32) {
        guard let subscriber = updateSubscribers.subscriber(descriptor) else { return }
        if let line = barLines.line(of: bar) {
            send(line, to: [subscriber], of: bar)
        } else {
            barLines.markChanged(bar)
        }
    }

    /// What a subscribed bar may say after its subscription: take its lines on its standard output, or stop and
    /// continue them as i3bar asks it. Anything else closes the connection.
    private func takeBarsWord(_ message: UnsafeRawBufferPointer, passing passed: FileDescriptor?, on descriptor: Int32)
    {
        guard case .subscribe(let bar)? = updateSubscribers.connection(descriptor)?.request else { return }
        switch UpdatesMessage(message) {
        case .writeLines? where passed.map(Self.isPipe) == true && (try? passed?.setNonBlocking()) != nil:
            updateSubscribers.write(to: passed!, for: descriptor)
            sendCurrentLine(of: bar, to: descriptor)
        case .pause?:
            updateSubscribers.pause(true, for: descriptor)
        case .resume?:
            updateSubscribers.pause(false, for: descriptor)
            sendCurrentLine(of: bar, to: descriptor)
        default:
            let said = String(decoding: message, as: UTF8.self)
            log(
                .warning, from: Self.updatesSource,
                "a bar said '\(LogText.excerpt(said))' after its subscription: closed the connection")
            dropConnection(descriptor)
        }
    }

    /// Whether `descriptor` is a pipe (i3bar's): the only output the daemon writes a bar's lines to.
    private static func isPipe(_ descriptor: FileDescriptor) -> Bool {
        (try? descriptor.status()).map { $0.st_mode & S_IFMT == S_IFIFO } ?? false
    }

    /// Closes a connection; the last subscriber of a bar gone, its line goes back to its file.
    private func dropConnection(_ descriptor: Int32) {
        guard case .subscribe(let bar)? = updateSubscribers.drop(descriptor), !updateSubscribers.isSubscribed(bar)
        else { return }
        writeLineFile(of: bar)
    }

    /// Sends `line` to `subscribers` of `bar`, as a message or written to the bar's output; one that cannot take it
    /// is let go.
    func send(_ line: String, to subscribers: [UpdateSubscribers.Subscriber], of bar: String) {
        let bytes = Array(line.utf8)
        // On the bar's output, after the line before it: i3bar's protocol is one endless JSON array.
        var written: [UInt8] { [UInt8(ascii: ",")] + bytes + [UInt8(ascii: "\n")] }
        for subscriber in subscribers {
            guard let output = subscriber.output else {
                send(bytes, to: subscriber.socket, saying: "a line of bar \(bar)")
                continue
            }
            guard !subscriber.paused else { continue }
            // Whole or not at all: a line cut in i3bar's pipe would break its protocol for good.
            guard !written.withUnsafeBytes({ output.writeWholeToPipe($0) }) else { continue }
            log(.info, from: Self.updatesSource, "bar \(bar)'s output is full or gone: closed its subscription")
            dropConnection(subscriber.socket.rawValue)
        }
    }

    /// Tells each connection that follows a record written this turn that the turn's records are all in place
    /// (`UpdatesMessage.written`), so a bar that makes one line of several records makes it now.
    func sayTurnEnded() {
        for socket in updateSubscribers.takeOwedTurnEnds() {
            send(Array(UpdatesMessage.written.utf8), to: socket, saying: "the end of a turn")
        }
    }

    /// Sends `bytes` as one message; a connection that cannot take it is let go.
    private func send(_ bytes: [UInt8], to socket: PacketSocket, saying what: @autoclosure () -> String) {
        let sent = bytes.withUnsafeBytes { socket.send($0) }
        guard sent != .sent else { return }
        let why = sent == .full ? "stopped reading" : "cannot be sent to"
        log(.info, from: Self.updatesSource, "a connection waiting for \(what()) \(why): closed it")
        dropConnection(socket.rawValue)
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
        for bar in updateSubscribers.dropSubscribers(ofBarsOtherThan: bars) {
            log(.info, "bar \(bar) left the config: closed its subscriptions")
        }
    }

    /// The daemon stops: each subscribed bar's line goes to its file, for the bar to show until a daemon runs again,
    /// and every record that is behind is written; the connections close and the socket goes.
    func stopServingUpdates() {
        for bar in updateSubscribers.subscribedBars { writeLineFile(of: bar) }
        for name in recordsBehind.sorted() { writeRecord(of: name, evenUnfollowed: true) }
        // The socket first: a client that sees its connection end and connects again at once finds no socket, and
        // waits for the next daemon's, rather than connecting to this one as it goes.
        updateSubscribers.stopListening()
        updateSubscribers.dropAll()
    }

    /// The socket's file went or was replaced (the runtime directory's repair): listens again.
    func repairUpdatesSocket() {
        guard !updateSubscribers.listenerIsInPlace else { return }
        updateSubscribers.stopListening()
        listenForUpdates()
        if updateSubscribers.listener != nil {
            log(.warning, "\(paths.control.updates) was deleted: listening on it again")
        }
    }
}
