import CLinux
import Foundation
import Glibc

/// The floor under "swap cost": what the kernel charges for the daemon's own system calls at a second boundary,
/// with nothing else around them. A bare process (this benchmark started again with `tickerFlag`) holds `count` files
/// and their spares open, as the daemon holds a per-second clock's, sleeps in `poll()` on a wall-clock timerfd that
/// repeats every second, and at each second reads the timer and, per file, takes the spare's write lease, writes the
/// time over the one there (as long: no truncation) and gives the lease up, then exchanges every spare with its file:
/// the daemon's four calls per swap (docs/PERFORMANCE.md, "Swap cost"). It is measured as the daemon is (`SwapBench`:
/// CPU from schedstat over the same window, swaps counted by the same inotify watcher), so the daemon's figure minus
/// this one is the daemon's own work: its engine, renderer and bookkeeping, and the cache misses they take after a
/// second asleep.
enum SwapFloorBench {
    /// The hidden first argument that makes `widgetd-bench` the bare process: `--swap-floor-ticker DIRECTORY COUNT`.
    static let tickerFlag = "--swap-floor-ticker"

    /// CPU per 1000 swaps, in seconds, over a `seconds` window that starts `settle` s after a whole second, and the
    /// pages the bare process touches in one wake after it (`Proc.pagesTouchedInOneWake`), with `countPages`.
    static func run(
        count: Int, seconds: Double, settle: Double, root: String, name: String, countPages: Bool = false
    ) throws -> (cpuPerThousand: Double, pagesPerWake: Int?) {
        let directory = root + "/" + name
        try makeDirectory(directory)
        let watcher = try RenameWatcher([directory])
        defer { watcher.stop() }
        let ticker = try Child(
            [benchmarkPath(), tickerFlag, directory, String(count)],
            environment: ProcessInfo.processInfo.environment)
        defer { ticker.stop() }
        guard waitUntil(timeout: 10, interval: 0.01, { Scenario.fileCount(directory) >= count }) else {
            throw BenchError("the swap floor's process did not make its \(count) files in \(directory)")
        }
        let start = realtime().rounded(.down) + settle
        sleepUntil(realtime: start)
        let scheduled0 = Proc.scheduledSeconds(ticker.pid)
        let from = watcher.count
        let end = start + seconds
        sleepUntil(realtime: end)
        let scheduled1 = Proc.scheduledSeconds(ticker.pid)
        let pages = countPages ? Proc.pagesTouchedInOneWake(ticker.pid) : nil
        guard ticker.isRunning else { throw BenchError("the swap floor's process stopped") }
        // An exchange moves both names: the spare's (hidden) is not a swap.
        let swaps = watcher.snapshot(from: from).filter { $0.time > start && $0.time <= end && !$0.name.hasPrefix(".") }
            .count
        guard swaps > 0 else { throw BenchError("the swap floor's process swapped nothing in \(seconds) s") }
        return ((scheduled1 - scheduled0) / Double(swaps) * 1000, pages)
    }

    /// The bare process: never returns. Everything is made before the first second; each second costs `poll`, `read`
    /// and four calls per file.
    static func tick(directory: String, count: Int) -> Never {
        // A reader's open() breaks a lease with SIGIO, whose default ends the process.
        signal(SIGIO, SIG_IGN)
        let held = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        let timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        guard held >= 0, timer >= 0 else { exit(1) }
        let names = (0..<count).map { strdup("c\($0).plain")! }
        let spares = (0..<count).map { strdup(".c\($0).plain.floor")! }
        var live: [Int32] = []
        var spare: [Int32] = []
        for index in 0..<count {
            live.append(openat(held, names[index], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600))
            spare.append(openat(held, spares[index], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600))
            guard live[index] >= 0, spare[index] >= 0 else { exit(1) }
        }
        let text = UnsafeMutablePointer<CChar>.allocate(capacity: 16)
        var written: [Int] = []
        written.reserveCapacity(count)
        var entry = pollfd(fd: timer, events: Int16(POLLIN), revents: 0)
        // Armed once, repeating every second from the next whole one: no call to arm it per wake.
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var setting = itimerspec()
        setting.it_value.tv_sec = now.tv_sec + 1
        setting.it_interval.tv_sec = 1
        _ = timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &setting, nil)
        while true {
            entry.revents = 0
            guard poll(&entry, 1, -1) > 0 else { continue }
            var expirations: UInt64 = 0
            _ = read(timer, &expirations, 8)
            clock_gettime(CLOCK_REALTIME, &now)
            var fields = tm()
            localtime_r(&now.tv_sec, &fields)
            let length = strftime(text, 16, "%T\n", &fields)
            // As the daemon does in one batch: every spare written first, then the names exchanged in one run.
            written.removeAll(keepingCapacity: true)
            for index in 0..<count {
                guard widgetd_take_write_lease(spare[index]) == 0 else { continue }
                _ = pwrite(spare[index], text, length, 0)
                _ = widgetd_release_lease(spare[index])
                written.append(index)
            }
            for index in written where widgetd_rename_exchange(held, spares[index], names[index]) == 0 {
                swap(&live[index], &spare[index])
            }
        }
    }
}
