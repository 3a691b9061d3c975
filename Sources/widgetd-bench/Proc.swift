import Foundation
import Glibc

/// Readers of `/proc`: what the kernel says a process cost, holds and did.
enum Proc {
    /// Clock ticks per second, the unit of `utime`/`stime` in `/proc/PID/stat`.
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// The fields of `/proc/PID/stat` the benchmark uses, in clock ticks.
    struct Stat {
        var pid: pid_t
        var parent: pid_t
        var utime: Int
        var stime: Int
        var cutime: Int
        var cstime: Int

        /// The process's own CPU (all its threads), in ticks.
        var own: Int { utime + stime }
    }

    static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `/proc/PID/stat`; the command name may hold spaces and parentheses, so fields are counted after the last `)`.
    static func stat(_ pid: pid_t) -> Stat? {
        guard let text = read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        // After ")": state(3) ppid(4) … utime(14) stime(15) cutime(16) cstime(17); field 3 is index 0 here.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 14 else { return nil }
        func field(_ number: Int) -> Int { Int(fields[number - 3]) ?? 0 }
        return Stat(
            pid: pid, parent: pid_t(field(4)), utime: field(14), stime: field(15), cutime: field(16),
            cstime: field(17))
    }

    /// The thread ids of `pid`.
    static func tasks(_ pid: pid_t) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).compactMap { pid_t($0) }
    }

    /// Time on CPU of every thread of `pid`, in seconds, from `/proc/PID/task/*/schedstat` (nanoseconds, so exact
    /// where `stat`'s ticks are 10 ms coarse). Threads that ended are not counted: the daemon's never end.
    static func scheduledSeconds(_ pid: pid_t) -> Double {
        var total: Double = 0
        for task in tasks(pid) {
            if let text = read("/proc/\(pid)/task/\(task)/schedstat"), let first = text.split(separator: " ").first {
                total += (Double(first) ?? 0) / 1e9
            }
        }
        return total
    }

    /// Voluntary plus involuntary context switches, summed over every thread of `pid`.
    static func contextSwitches(_ pid: pid_t) -> Int {
        var total = 0
        for task in tasks(pid) {
            guard let text = read("/proc/\(pid)/task/\(task)/status") else { continue }
            for line in text.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                total += Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        return total
    }

    /// A `kB` field of `/proc/PID/status` (`VmHWM`, `VmRSS`), in kB.
    static func statusKilobytes(_ pid: pid_t, _ key: String) -> Int? {
        guard let text = read("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
        }
        return nil
    }

    static func threads(_ pid: pid_t) -> Int { tasks(pid).count }

    /// The pages of memory, code and data, that `pid` touches in one wake of a process that wakes at every whole
    /// second: the kernel clears every page's accessed bit half a second after a second (`clear_refs`, which also
    /// flushes the TLB), and `smaps_rollup`'s `Referenced` counts what was touched by half a second after the next one:
    /// how far a wake's code and data are spread (docs/PERFORMANCE.md, "Swap cost"). Nil where `clear_refs`
    /// cannot be written.
    static func pagesTouchedInOneWake(_ pid: pid_t) -> Int? {
        let clear = "/proc/\(pid)/clear_refs"
        sleepUntil(realtime: realtime().rounded(.down) + 1.5)
        guard let handle = FileHandle(forWritingAtPath: clear) else { return nil }
        defer { try? handle.close() }
        guard (try? handle.write(contentsOf: Data("1".utf8))) != nil else { return nil }
        sleepUntil(realtime: realtime().rounded(.down) + 1.5)
        // The whole process's sum, one short file (`smaps` itself is longer than one read of it here).
        guard let rollup = read("/proc/\(pid)/smaps_rollup"),
            let line = rollup.split(separator: "\n").first(where: { $0.hasPrefix("Referenced:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { return nil }
        return kilobytes * 1024 / Int(getpagesize())
    }

    /// Open descriptors (`ls /proc/PID/fd`).
    static func descriptors(_ pid: pid_t) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).count
    }

    /// `/proc/PID/io`: `wchar` (bytes handed to write(2)) and `write_bytes` (bytes sent to a block device).
    static func io(_ pid: pid_t) -> (wchar: Int, writeBytes: Int)? {
        guard let text = read("/proc/\(pid)/io") else { return nil }
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1].trimmingCharacters(in: .whitespaces)) }
        }
        return (values["wchar"] ?? 0, values["write_bytes"] ?? 0)
    }

    /// The children of `pid` that are alive now.
    static func children(of pid: pid_t) -> [pid_t] {
        var found: [pid_t] = []
        // /proc/PID/task/TID/children needs CONFIG_PROC_CHILDREN; scanning /proc works everywhere.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let candidate = pid_t(name), let info = stat(candidate), info.parent == pid else { continue }
            found.append(candidate)
        }
        return found
    }

    /// CPU of `pid`, its reaped children, and its live children with theirs, in seconds: what a process tree has
    /// cost so far. A difference of two readings is the cost in between: a child alive at the first reading and
    /// reaped before the second moves from the live sum into `cutime`. Live processes are read from schedstat
    /// (nanoseconds); reaped ones only exist as `cutime + cstime` (10 ms ticks, accumulated exactly).
    static func treeCPU(_ pid: pid_t) -> (own: Double, children: Double) {
        guard let root = stat(pid) else { return (0, 0) }
        let own = scheduledSeconds(pid)
        var children = Double(root.cutime + root.cstime) / ticksPerSecond
        for child in Self.children(of: pid) {
            guard let info = stat(child) else { continue }
            children += scheduledSeconds(child) + Double(info.cutime + info.cstime) / ticksPerSecond
        }
        return (own, children)
    }

    /// The summed resident size of `pid`'s live children, in kB.
    static func childrenRSS(of pid: pid_t) -> Int {
        children(of: pid).reduce(0) { $0 + (statusKilobytes($1, "VmRSS") ?? 0) }
    }

    /// `/proc/loadavg`'s first three fields.
    static func loadAverage() -> String {
        (read("/proc/loadavg") ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }
}

/// Wall-clock time (CLOCK_REALTIME), the clock the daemon's deadlines and entries are dated on.
func realtime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Monotonic time, for durations.
func monotonic() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func sleepSeconds(_ seconds: Double) {
    guard seconds > 0 else { return }
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
}

/// Sleeps until the wall clock reads `instant`.
func sleepUntil(realtime instant: Double) {
    sleepSeconds(instant - realtime())
}

/// Polls `condition` every `interval` until it holds or `timeout` passes; returns whether it held.
@discardableResult
func waitUntil(timeout: Double, interval: Double = 0.02, _ condition: () -> Bool) -> Bool {
    let end = monotonic() + timeout
    while monotonic() < end {
        if condition() { return true }
        sleepSeconds(interval)
    }
    return condition()
}
