import Glibc
import System

/// Why a request did not reach the daemon, or was not acknowledged.
public enum ControlClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No FIFO, or nobody reading it.
    case notRunning(path: String)
    /// The command cannot be written as a control line the daemon would accept.
    case invalid(ControlParseError)
    /// The line, with its newline, is longer than one atomic FIFO write.
    case lineTooLong(bytes: Int)
    /// The FIFO was full until the deadline (at once, for a caller that does not wait): the daemon is alive but not
    /// reading.
    case busy(path: String)
    /// The FIFO or the acknowledgement directory failed the ownership and type checks.
    case unsafe(ControlPathError)
    /// The daemon did not acknowledge the request before the deadline.
    case noAcknowledgement(token: String)
    /// The daemon acknowledged the request with why it failed (a provider's error, an unknown widget or intent).
    case failed(String)
    /// A system call failed.
    case system(SystemError)

    public var description: String {
        switch self {
        case .notRunning(let path): "widgetd is not running (no reader on \(path))"
        case .invalid(let error): error.message
        case .lineTooLong(let bytes):
            "the request is \(bytes) bytes; at most \(ControlFIFO.maximumLineLength) fit on one control line"
        case .busy(let path): "widgetd is not reading its control FIFO \(path) (it is full)"
        case .unsafe(let error): error.description
        case .noAcknowledgement: "widgetd did not confirm the request in time; it may still be working on it"
        case .failed(let reason): reason
        case .system(let error): error.description
        }
    }
}

/// The CLI's end of the control FIFO: writes one request line for the daemon (DESIGN §4).
public enum ControlClient {
    /// Writes `command`'s line between two newlines to the FIFO at `path` in one `write`, so it arrives whole even
    /// when other writers write at the same time (`open(O_WRONLY | O_NONBLOCK)`, `write`).
    ///
    /// Opening without blocking is how a missing daemon shows: `ENXIO`, no reader, rather than a CLI that
    /// hangs. A FIFO that is full (`EAGAIN`: the daemon is busy) is retried until `timeout` (`.zero`: not at all). `SIGPIPE` is
    /// blocked in this thread for the write, so a daemon that exits just then makes this throw
    /// `.notRunning` instead of killing the CLI.
    ///
    /// - Throws: `.notRunning` when there is no FIFO or no reader; `.unsafe` when the path is not the user's
    ///   own FIFO; `.invalid` or `.lineTooLong` for a command that cannot be sent; `.busy` after `timeout`.
    public static func send(
        _ command: ControlCommand, fifo path: String, timeout: Duration = .seconds(2)
    ) throws(ControlClientError) {
        let line = command.line
        let reparsed: ControlCommand
        do {
            reparsed = try ControlCommand.parse(line)
        } catch {
            throw .invalid(error)
        }
        guard reparsed == command else {
            throw .invalid(ControlParseError("cannot write '\(line)' as a control line"))
        }
        // A newline first ends whatever line another writer left unfinished (`printf 'reload all' > control` just
        // before), so this request is never glued to it; the daemon skips the empty line if there was none.
        let bytes = Array(("\n" + line + "\n").utf8)
        guard bytes.count <= ControlFIFO.maximumLineLength else { throw .lineTooLong(bytes: bytes.count) }

        let fifo = try open(path)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        try withBrokenPipeReported { () throws(ControlClientError) in
            while true {
                do throws(SystemError) {
                    try fifo.write(bytes)  // all or nothing: at most PIPE_BUF bytes to a pipe
                    return
                } catch {
                    switch error.errno {
                    case EPIPE: throw .notRunning(path: path)
                    case EAGAIN: try waitUntilWritable(fifo, until: deadline, path: path)
                    default: throw .system(error)
                    }
                }
            }
        }
    }

    /// A request the daemon carried out: its token, and the widgets whose entries it wrote.
    public struct Confirmation: Sendable, Equatable {
        public var token: ControlCommand.AckToken
        public var widgets: [String]
    }

    /// Sends `command` with an acknowledgement token and waits until the daemon has written the entries it
    /// caused, by watching `<runtime dir>/acks` for the token's file (inotify); removes the file after. Throws
    /// `.failed` with the daemon's reason when the acknowledgement says the request failed (`Acknowledgement`).
    ///
    /// The watch is in place before the request is written, so a fast daemon cannot acknowledge unseen.
    /// Uses the command's token, or a new one when it has none.
    /// - Returns: the token acknowledged, and the widgets the daemon says it wrote.
    @discardableResult
    public static func sendAndWait(
        _ command: ControlCommand, paths: ControlPaths, timeout: Duration = .seconds(10)
    ) throws(ControlClientError) -> Confirmation {
        var command = command
        let token = command.acknowledgement ?? .unique()
        command.acknowledgement = token
        let file = paths.acknowledgement(token)
        let deadline = ContinuousClock.now.advanced(by: timeout)

        do {
            try ControlPaths.checkDirectory(paths.acknowledgements)
        } catch {
            if case .system(let cause) = error, cause.errno == ENOENT { throw .notRunning(path: paths.fifo) }
            throw .unsafe(error)
        }
        let inotify: Inotify
        do {
            inotify = try Inotify()
            try inotify.watch(directory: paths.acknowledgements, mask: [.create, .movedTo, .closeWrite])
        } catch {
            throw .system(error)
        }
        try send(command, fifo: paths.fifo, timeout: timeout)

        while access(file, F_OK) != 0 {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw .noAcknowledgement(token: token.rawValue) }
            do {
                _ = try Poller.waitUntilReadable(inotify.fileDescriptor, timeout: left)
            } catch {
                throw .system(error)
            }
            _ = inotify.readEvents()  // the access() above is the test; this only clears the queue
        }
        // The daemon writes it by rename, so what is there is all of it.
        let bytes = (try? FileDescriptor.open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK).readToEnd()) ?? []
        _ = unlink(file)
        switch Acknowledgement(bytes) {
        case .done(let widgets): return Confirmation(token: token, widgets: widgets)
        case .failed(let reason): throw .failed(reason)
        }
    }

    /// Opens the FIFO for writing after checking it is the user's own FIFO, not a link.
    private static func open(_ path: String) throws(ControlClientError) -> FileDescriptor {
        do {
            try ControlPaths.checkFIFO(path)
        } catch {
            if case .system(let cause) = error, cause.errno == ENOENT { throw .notRunning(path: path) }
            throw .unsafe(error)
        }
        let fifo: FileDescriptor
        let info: stat
        do {
            fifo = try FileDescriptor.open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW)
            info = try fifo.status()
        } catch {
            if error.errno == ENXIO || error.errno == ENOENT { throw .notRunning(path: path) }
            throw .system(error)
        }
        do {
            try ControlPaths.checkFIFO(info, of: path)  // what was opened, in case the path changed
        } catch {
            throw .unsafe(error)
        }
        return fifo
    }

    /// Waits until the FIFO has room (`poll` with `POLLOUT`), or throws `.busy` at the deadline.
    private static func waitUntilWritable(
        _ fifo: FileDescriptor, until deadline: ContinuousClock.Instant, path: String
    ) throws(ControlClientError) {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { throw .busy(path: path) }
        var entry = pollfd(fd: fifo.rawValue, events: Int16(POLLOUT), revents: 0)
        do {
            try systemCall("poll") { poll(&entry, 1, Poller.milliseconds(left)) }
        } catch {
            throw .system(error)
        }
    }

    /// Runs `body` with `SIGPIPE` blocked in this thread, then discards a `SIGPIPE` that `body` raised.
    ///
    /// A write to a FIFO whose reader has gone raises `SIGPIPE`, whose default action ends the process; the
    /// CLI should instead say the daemon is not running. Blocking it in this thread only (rather than
    /// ignoring it process-wide) leaves the rest of the process as it was; the pending signal is taken with
    /// `sigtimedwait` before the old mask comes back, unless one was pending already.
    private static func withBrokenPipeReported(
        _ body: () throws(ControlClientError) -> Void
    ) throws(ControlClientError) {
        var pipe = SignalFile.signalSet([SIGPIPE])
        var pending = sigset_t()
        sigpending(&pending)
        let pendingBefore = sigismember(&pending, SIGPIPE) == 1
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipe, &previous)
        defer {
            sigpending(&pending)
            if !pendingBefore && sigismember(&pending, SIGPIPE) == 1 {
                var noWait = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipe, nil, &noWait)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        try body()
    }
}
