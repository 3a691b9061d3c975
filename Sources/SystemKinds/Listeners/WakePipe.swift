import Glibc

/// The pipe a listener's thread polls beside its source, so that a change of subscribers (or a request) wakes it to
/// wait for the right deadline: the thread never polls on a timer to notice them.
///
/// Both ends are non-blocking: a full pipe already holds a wake-up, and draining stops when it is empty. If no pipe can
/// be made, both ends are -1, which `poll` skips: the thread then only hears its source and its deadlines.
struct WakePipe: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        for end in ends where end >= 0 {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Wakes the thread waiting in `wait`, or makes its next `wait` return at once.
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Waits (`poll(2)`) for `descriptor` (-1: none), a wake-up, or `milliseconds` (-1: no limit), drains the wake-ups,
    /// and answers `descriptor`'s returned events.
    func wait(for descriptor: Int32, milliseconds: Int32) -> Int16 {
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&descriptors, 2, milliseconds)
        if descriptors[1].revents != 0 {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { drain in
                while read(readEnd, drain.baseAddress, drain.count) > 0 {}
            }
        }
        return descriptors[0].revents
    }
}
