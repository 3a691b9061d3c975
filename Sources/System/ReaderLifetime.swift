import Basics
internal import CLinux
import Glibc

/// How a process that writes lines for a bar for as long as the bar runs (`widgetd show --follow`, `widgetd bar`)
/// notices that the bar is gone, so it exits at once and quietly instead of lingering as an orphan.
///
/// Three ways a bar goes, each seen without polling:
/// - Its reading end closes while there is something to write: `write(2)` fails with `EPIPE`. `SIGPIPE` is ignored
///   here first, so that failure is an error to handle, not a signal that kills the process, whatever disposition
///   the bar handed down (waybar's children inherit an ignored `SIGPIPE`; a shell's inherit the default).
/// - Its reading end closes while nothing is due: standard output is polled with no events requested, and a pipe's
///   write end then reports `POLLERR` (a terminal's, `POLLHUP`). A regular file reports neither, so it never wakes.
/// - The parent process exits (waybar restarting kills its children's reader, but i3blocks or a shell may not): a
///   pidfd of the parent (`pidfd_open`, Linux 5.3) becomes readable when it exits. A pidfd follows the whole process,
///   whereas `PR_SET_PDEATHSIG` fires when the thread that forked exits, which for a bar that starts modules from
///   worker threads may be long before the bar goes. `PR_SET_PDEATHSIG` is the fallback for kernels without pidfds.
public final class ReaderLifetime: Sendable {
    /// The descriptor written to: standard output.
    public let output: Int32
    /// The parent's pidfd; nil when the parent is init already (nothing to outlive) or the kernel has no pidfds.
    private let parent: FileDescriptor?

    /// Starts watching: ignores `SIGPIPE` and opens the parent's pidfd. Returns nil when the parent has already gone
    /// (this process was re-parented before the pidfd was open), so the caller exits at once.
    public init?(output: Int32 = 1) {
        signal(SIGPIPE, SIG_IGN)
        self.output = output
        let parentID = getppid()
        guard parentID > 1 else {
            parent = nil
            return
        }
        let raw = widgetd_pidfd_open(parentID)
        if raw >= 0 {
            parent = FileDescriptor(owning: raw)
        } else {
            parent = nil
            // No pidfds: the parent's death sends SIGTERM, whose default action ends this process.
            _ = widgetd_parent_death_signal(SIGTERM)
        }
        // The parent may have exited before the pidfd was opened (then it would name an exited process, or the
        // death signal was never armed): re-parenting shows it.
        if getppid() != parentID { return nil }
    }

    /// What to poll for the end: the parent's pidfd (readable once it exits) with `POLLIN`, and the output with no
    /// events, which still reports `POLLERR` and `POLLHUP`.
    public var pollEntries: [pollfd] {
        var entries = [pollfd(fd: output, events: 0, revents: 0)]
        if let parent { entries.append(pollfd(fd: parent.rawValue, events: Int16(POLLIN), revents: 0)) }
        return entries
    }

    /// Whether `entries` (as `poll` returned them, in any order with other descriptors) say the reader or the parent
    /// is gone.
    public func hasEnded(_ entries: [pollfd]) -> Bool {
        entries.contains { entry in
            (entry.fd == output && Int32(entry.revents) & Int32(POLLERR | POLLHUP) != 0)
                || (entry.fd == parent?.rawValue && entry.revents != 0)
        }
    }

    /// Writes `bytes` to the output whole (`write(2)` in a loop); false when the reader is gone (`EPIPE`) or the
    /// output failed otherwise, so the caller stops.
    public func write(_ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let result = retryingInterrupted {
                bytes.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + written, $0.count - written) }
            }
            if result < 0 { return false }
            written += result
        }
        return true
    }

    /// Waits (`poll`, retried on `EINTR`) for any of `readable` to be readable, or for the end; the descriptors of
    /// `readable` that are ready, or nil once the reader or the parent is gone. A nil timeout waits for ever.
    public func wait(forReadable readable: [Int32], timeout: Duration? = nil) throws(SystemError) -> Set<Int32>? {
        var entries = readable.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } + pollEntries
        let milliseconds = timeout.map { Poller.milliseconds($0) } ?? -1
        try systemCall("poll") { poll(&entries, nfds_t(entries.count), milliseconds) }
        if hasEnded(entries) { return nil }
        var ready = Set<Int32>()
        for entry in entries.prefix(readable.count) where entry.revents != 0 {
            if Int32(entry.revents) & Int32(POLLNVAL) != 0 {
                throw SystemError(call: "poll", subject: "descriptor \(entry.fd)", errno: EBADF)
            }
            ready.insert(entry.fd)
        }
        return ready
    }
}
