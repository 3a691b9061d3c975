import Basics
import Glibc
import System

/// The open descriptors of the files rewritten most often, kept between writes: a file and its spare
/// (`AtomicFile+Spare`) held open on both inodes, so that a swap leases, writes and exchanges the spare it already has
/// open instead of opening it by name and closing it again, five system calls instead of seven (four when the length
/// does not change: no truncation, `AtomicFile.rewriteLeased`). On tmpfs the open and close are a large part of the
/// kernel's time per swap of per-second clocks, which wake the kernel cold every second (docs/PERFORMANCE.md, "Swap
/// cost").
///
/// Holding a file open changes nothing a reader sees: the spare is still rewritten only under a write lease, which the
/// kernel grants while no other process has it open (this process's own descriptor does not count). The descriptors
/// follow inodes, not names, so they are only right while nobody else renames or deletes this process's files: a spare
/// deleted by someone makes the exchange fail (`.missing`), and the writer then drops the pair and writes by name; a
/// bar file deleted is forgotten (`OutputWriter.forget`), which drops the pair too, and one replaced by another file is
/// found at the next write (`pairToWrite`), which then goes by name.
///
/// Bounded: at most `capacity` files (two descriptors each), far below the descriptor limit. A held pair not written
/// for `idleAfter` (a minute) is closed when another file needs its place, so a 10,000-widget config fills the table
/// with the files that change every second, not with the first ones written.
///
/// The bound is 1,024 files: room for every per-second file of a config far past any bar's (the benchmark's thousand
/// per-second clocks among them), for about half a kilobyte of kernel memory per file (two open file descriptions).
/// A file left out pays an `openat` and a `close` at every write, a large part of a second's burst at a thousand files
/// (docs/PERFORMANCE.md, "Swap cost").
struct HeldSpares {
    /// A held file's names, kept apart from its descriptors and sizes (`Pair`), which change at every write: a `Pair`
    /// is plain data, read, copied and written back with no reference counting, and no value witness of the standard
    /// library's is called for it (docs/PERFORMANCE.md, "Swap cost").
    struct Names {
        let name: String
    }

    struct Pair {
        /// The spare's inode (`.<name>.<pid>`), rewritten by the next write.
        var spare: Int32
        /// The inode under the file's name, which becomes the spare after the next exchange.
        var live: Int32
        /// How many bytes the spare and the file hold, as this process last wrote or found them: a rewrite of the
        /// spare with as many bytes overwrites them in place, with no truncation (`AtomicFile.rewriteLeased`).
        var spareSize: Int
        var liveSize: Int
        /// When it was last written (`CLOCK_MONOTONIC_COARSE`, seconds).
        var lastWrite: Int32
    }

    /// At most this many files are held; 0 holds none.
    let capacity: Int
    private var pairs: [Pair?] = []
    /// Each slot's names, beside `pairs`: set and cleared with its pair.
    private var names: [Names?] = []
    private var freeSlots: [Int32] = []
    /// Before this time (monotonic seconds) a full table is not searched again for idle pairs.
    private var nextIdleCheck: Int32 = 0
    /// The slots whose spare, the file just replaced, is to be emptied before its next write (`emptyRetiredSpares`).
    private var toEmpty: [Int32] = []

    /// A file is held once its spare is rewritten within this many seconds of its last write (a per-minute clock's,
    /// with room for a late minute), not a widget that changes hourly or once.
    static let rewrittenWithin: Int32 = 90

    /// Seconds without a write after which a pair gives its place up to another file.
    let idleAfter: Int32
    static let idleCheckInterval: Int32 = 10

    /// `capacity` files at most, fewer when the descriptor limit is low: the pairs never take more than half of what
    /// is left of it above 256 descriptors for the rest of the daemon (providers' pipes, plugins, the store).
    init(capacity: Int = 1024, idleAfter: Int32 = 60) {
        self.idleAfter = idleAfter
        var limit = rlimit()
        // RLIM_INFINITY (all ones) clamps to Int.max, as unlimited.
        let descriptors =
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(clamping: limit.rlim_cur) : 1024
        self.capacity = max(0, min(capacity, (descriptors - 256) / 4))
    }

    /// How many files are held open (two descriptors each).
    var count: Int { pairs.count - freeSlots.count }

    /// The pair held for `name` in `slot`, if that slot still holds it.
    func pair(in slot: Int32, for name: String) -> Pair? {
        guard slot >= 0, Int(slot) < pairs.count, let pair = pairs[Int(slot)], names[Int(slot)]?.name == name else {
            return nil
        }
        return pair
    }

    /// `pair(in:for:)` for a write: nil, with the pair released, when the file's inode has lost its name. Someone
    /// put another file there by name (`mv other sec.plain`) or deleted it: the exchange would hand the name back and
    /// forth between that file and this process's every second, and the write goes by name instead, which puts this
    /// process's contents there for good. One `fstat` of a descriptor already open, per write.
    mutating func pairToWrite(in slot: Int32, for name: String) -> Pair? {
        guard let pair = pair(in: slot, for: name) else { return nil }
        var status = stat()
        guard fstat(pair.live, &status) == 0, status.st_nlink > 0 else {
            release(slot: slot)
            return nil
        }
        return pair
    }

    /// The spare was exchanged with the file: the two inodes trade places. A file whose new contents are not as long
    /// as the ones they replaced will likely change length again: its new spare is listed for `emptyRetiredSpares`.
    mutating func exchanged(slot: Int32, now: Int32) {
        guard var pair = pairs[Int(slot)] else { return }
        swap(&pair.spare, &pair.live)
        swap(&pair.spareSize, &pair.liveSize)
        pair.lastWrite = now
        pairs[Int(slot)] = pair
        if pair.spareSize != pair.liveSize, pair.spareSize != 0, toEmpty.count < capacity { toEmpty.append(slot) }
    }

    /// Some spare waits to be emptied (`emptyRetiredSpares`).
    var hasSparesToEmpty: Bool { !toEmpty.isEmpty }

    /// Empties the spares of the files whose last rewrite changed their length, and gives each the pages of its next
    /// contents beyond its end, for as many bytes as the file holds now: work for after the exchanges, when nobody
    /// waits for a file.
    ///
    /// A rewrite of another length truncates the spare first, so that a page a reader spliced into a pipe keeps its
    /// bytes (`AtomicFile+Spare`), and then writes into a new page: with caches cold, after 10 ms asleep, freeing the
    /// old page and allocating the new one are a large part of a reload's way from the FIFO to the renamed file
    /// (docs/PERFORMANCE.md, "Reload latency"). Done here instead, the next rewrite finds an empty file (`spareSize` 0:
    /// written with no truncation, as nobody can have read a byte of it) whose pages are already there. A spare that
    /// another process still has open (a reader of the file just replaced) is left as it is: the lease is refused, and
    /// its next rewrite truncates it then, as before.
    mutating func emptyRetiredSpares() {
        for slot in toEmpty {
            guard Int(slot) < pairs.count, let pair = pairs[Int(slot)], pair.spareSize != 0,
                SpareFileCalls.takeWriteLease(pair.spare) == 0
            else { continue }
            if retryingInterrupted({ ftruncate(pair.spare, 0) }) == 0 {
                pairs[Int(slot)]?.spareSize = 0
                // Nothing lost where it fails (a filesystem without it): the write allocates the pages then.
                _ = SpareFileCalls.reserveSpace(pair.spare, length: max(pair.liveSize, 1))
            }
            SpareFileCalls.releaseLease(pair.spare)
        }
        toEmpty.removeAll(keepingCapacity: true)
    }

    /// The spare in `slot` now holds `size` bytes.
    mutating func spareRewritten(slot: Int32, size: Int) {
        pairs[Int(slot)]?.spareSize = size
    }

    /// Opens `name` and its spare in `directory` and holds them; the slot, or nil when there is no room or either
    /// cannot be opened (the caller just goes on writing by name).
    mutating func hold(_ names: AtomicFile.SpareNames, in directory: Int32, now: Int32) -> Int32? {
        guard capacity > 0 else { return nil }
        if freeSlots.isEmpty, pairs.count >= capacity {
            guard now >= nextIdleCheck else { return nil }
            nextIdleCheck = now + Self.idleCheckInterval
            for slot in pairs.indices where pairs[slot].map({ now - $0.lastWrite >= idleAfter }) == true {
                release(slot: Int32(slot))
            }
            if freeSlots.isEmpty { return nil }
        }
        // As the by-name rewrite opens the spare: O_NONBLOCK, so a FIFO put there fails at once.
        let flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
        let live = retryingInterrupted { openat(directory, names.cName, flags) }
        guard live >= 0 else { return nil }
        let spare = retryingInterrupted { openat(directory, names.cSpare, flags) }
        guard spare >= 0, let spareSize = Self.fileSize(spare), let liveSize = Self.fileSize(live) else {
            close(live)
            if spare >= 0 { close(spare) }
            return nil
        }
        let pair = Pair(spare: spare, live: live, spareSize: spareSize, liveSize: liveSize, lastWrite: now)
        let held = Names(name: names.name)
        if let slot = freeSlots.popLast() {
            pairs[Int(slot)] = pair
            self.names[Int(slot)] = held
            return slot
        }
        pairs.append(pair)
        self.names.append(held)
        return Int32(pairs.count - 1)
    }

    /// Closes the pair in `slot`, if any.
    mutating func release(slot: Int32) {
        guard slot >= 0, Int(slot) < pairs.count, let pair = pairs[Int(slot)] else { return }
        close(pair.spare)
        close(pair.live)
        pairs[Int(slot)] = nil
        names[Int(slot)] = nil
        freeSlots.append(slot)
    }

    /// Closes `name`'s pair if `slot` holds it.
    mutating func release(slot: Int32, for name: String) {
        if pair(in: slot, for: name) != nil { release(slot: slot) }
    }

    /// Closes every pair.
    mutating func releaseAll() {
        for slot in pairs.indices { release(slot: Int32(slot)) }
        pairs = []
        names = []
        freeSlots = []
        toEmpty = []
    }

    /// The size of the file open as `descriptor`; nil when it is not a regular file.
    private static func fileSize(_ descriptor: Int32) -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Seconds on the coarse monotonic clock (a vDSO read, no system call); since boot, so they fit 32 bits for
    /// 68 years.
    static func now() -> Int32 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return Int32(truncatingIfNeeded: time.tv_sec)
    }
}
