import Foundation
import Glibc

// Glibc's module map does not bring in <sys/inotify.h>; these are its three calls.
@_silgen_name("inotify_init1") private func inotify_init1(_ flags: Int32) -> Int32
@_silgen_name("inotify_add_watch")
private func inotify_add_watch(_ fd: Int32, _ path: UnsafePointer<CChar>, _ mask: UInt32) -> Int32

private let inMovedTo: UInt32 = 0x0000_0080
private let inCreate: UInt32 = 0x0000_0100
private let inQueueOverflow: UInt32 = 0x0000_4000

/// Records every rename into watched directories (`IN_MOVED_TO`, which is how the daemon's atomic writes land)
/// with the wall-clock time the event was read, on a thread of its own that sleeps in `poll()`. With `creations`, also
/// every visible name created (`IN_CREATE`): a file's first write lands whole by a link, which raises that instead
/// (hidden names, the daemon's temporary files and spares, are left out: they land nowhere a bar reads).
///
/// The time is taken when `read()` returns, so an event is dated at most as early as the daemon's `rename()` and
/// later by the time this thread takes to wake: a lateness read here is an upper bound.
final class RenameWatcher: @unchecked Sendable {
    // @unchecked: `events`, `overflowed` and `stopped` are only touched under `condition`'s lock.
    struct Event {
        var directory: Int
        var name: String
        var time: Double
    }

    private let descriptor: Int32
    private var stopPipe: [Int32] = [-1, -1]
    private var watches: [Int32: Int] = [:]
    private let condition = NSCondition()
    private var events: [Event] = []
    private(set) var overflowed = false
    private var stopped = false
    private let creations: Bool

    /// Watches `directories` (which must exist); event `directory` fields index this list.
    init(_ directories: [String], creations: Bool = false) throws {
        self.creations = creations
        descriptor = inotify_init1(O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw BenchError("inotify_init1: \(String(cString: strerror(errno)))") }
        for (index, directory) in directories.enumerated() {
            let watch = inotify_add_watch(descriptor, directory, inMovedTo | (creations ? inCreate : 0))
            guard watch >= 0 else {
                throw BenchError("inotify_add_watch \(directory): \(String(cString: strerror(errno)))")
            }
            watches[watch] = index
        }
        guard makePipe(&stopPipe) else { throw BenchError("pipe2 failed") }
        events.reserveCapacity(1 << 16)
        let thread = Thread { [self] in self.pump() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    func stop() {
        condition.lock()
        let already = stopped
        stopped = true
        condition.unlock()
        guard !already else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe[1], &byte, 1)
    }

    /// How many events have been recorded; an index into `snapshot`.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return events.count
    }

    /// The events recorded from index `from` on.
    func snapshot(from: Int = 0) -> [Event] {
        condition.lock()
        defer { condition.unlock() }
        return from < events.count ? Array(events[from...]) : []
    }

    /// Waits for an event named `name` at index `from` or later; returns it, or nil after `timeout` seconds.
    func waitFor(name: String, from: Int, timeout: Double) -> (event: Event, index: Int)? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        var next = from
        while true {
            while next < events.count {
                if events[next].name == name { return (events[next], next) }
                next += 1
            }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// Waits until `predicate` holds for the events recorded so far (it is called with all of them under the lock,
    /// after each batch); returns whether it held before `timeout`.
    func waitUntil(timeout: Double, _ predicate: (ArraySlice<Event>) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(events[...]) {
            if !condition.wait(until: deadline) { return predicate(events[...]) }
        }
        return true
    }

    private func pump() {
        let size = 1 << 18
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer {
            buffer.deallocate()
            close(descriptor)
            close(stopPipe[0])
            close(stopPipe[1])
        }
        var fds = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
        ]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            if poll(&fds, 2, -1) == -1 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            var batch: [Event] = []
            while true {
                let got = read(descriptor, buffer, size)
                let now = realtime()
                if got <= 0 { break }
                var offset = 0
                while offset + 16 <= got {
                    let base = buffer + offset
                    let watch = base.loadUnaligned(as: Int32.self)
                    let mask = base.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
                    let length = Int(base.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                    if mask & inQueueOverflow != 0 {
                        condition.lock()
                        overflowed = true
                        condition.unlock()
                    }
                    if length > 0, let directory = watches[watch] {
                        let name = String(cString: (base + 16).assumingMemoryBound(to: CChar.self))
                        if mask & inCreate == 0 || !name.hasPrefix(".") {
                            batch.append(Event(directory: directory, name: name, time: now))
                        }
                    }
                    offset += 16 + length
                }
            }
            condition.lock()
            events.append(contentsOf: batch)
            condition.broadcast()
            condition.unlock()
        }
    }
}
