import Basics
import CLinux
import FoundationEssentials
import Glibc
import Synchronization
import System

/// Keeps the processes that a widget's commands start from outliving the widget or the daemon.
///
/// A command's process group is not enough: a script can `setsid` a child (or double-fork a daemon), and that child
/// leaves the group, so killing the group at a timeout misses it, and it reparents to init when the script exits. A
/// cgroup would hold every descendant, but a user's systemd rarely delegates one to a user service, so instead:
///
/// - the daemon is a child subreaper (`adoptOrphans`): a descendant whose parent exits is reparented to the daemon,
///   not to init, so escaped processes stay where the daemon can see them (as its children, in `/proc/*/stat`);
/// - every guarded spawn carries an owner in its environment (`tagged`), `WIDGETD_SPAWN=<daemon pid>.<owner>`,
///   which its descendants inherit, so an orphan can be traced to the widget whose command started it;
/// - `endEscaped(owner:)` kills a widget's orphans with their process groups (a timeout, the widget removed), and
///   `endAll` every tagged process at the daemon's stop, repeating while killing exposes deeper orphans.
///
/// Usage for a spawn layer (exec runs; long-running `persist` children the same way): spawn with
/// `tagged(environment, owner:)`, register the pid with `RunningCommands.started` inside `SpawnGuard.withLock` (so
/// `reapOrphans` never reaps a child its thread waits for), and after the run was killed call `endEscaped(owner:)`.
/// What survives it: a descendant that clears its environment (`env -i`) and escapes the process group cannot be
/// traced; it is still reaped when it exits, but not killed.
public enum ProcessHygiene {
    /// The environment variable that names a spawn's owner.
    public static let tagVariable = "WIDGETD_SPAWN"

    /// Makes this process the reaper of its orphaned descendants (`prctl(PR_SET_CHILD_SUBREAPER)`); once, at start.
    /// - Returns: whether the kernel agreed.
    @discardableResult
    public static func adoptOrphans() -> Bool {
        reapsEveryChild.store(true, ordering: .relaxed)
        return widgetd_become_subreaper() == 0
    }

    /// Whether every exited child of this process is the daemon's to reap: true once the daemon that owns its process
    /// asked to adopt orphans, whether or not the kernel agreed (a child the daemon detached is reaped either way).
    /// A daemon that shares its process (a test's, beside other tests) leaves the process's other children to those
    /// who started them: each child of its own has a waiter of its own (a command's thread, a persistent process,
    /// `ClickCommands`), and without the subreaper no orphan comes to it.
    private static let reapsEveryChild = Atomic<Bool>(false)

    /// `environment` with the owner tag for a spawn on behalf of `owner` (a widget's name), and of one `run` of its
    /// command when given: `<daemon pid>.<owner>.<run>` (a widget name has no dot).
    public static func tagged(_ environment: [String: String], owner: String, run: UInt64? = nil) -> [String: String] {
        var environment = environment
        environment[tagVariable] = tagPrefix + owner + (run.map { ".\($0)" } ?? "")
        return environment
    }

    /// Kills `owner`'s processes that escaped to the daemon, with their process groups, and reaps them; repeats
    /// while killing them leaves deeper orphans, for at most `within` seconds. With `run`, only what that run
    /// started (its timeout): what earlier runs left in the background, as i3blocks leaves it, stays.
    public static func endEscaped(owner: String, run: UInt64? = nil, within: TimeInterval = 2) {
        let tag = tagVariable + "=" + tagPrefix + owner
        if let run {
            let runTag = tag + ".\(run)"
            end(within: within, includingRunning: false) { $0 == runTag }
        } else {
            end(within: within, includingRunning: false) { $0 == tag || $0.hasPrefix(tag + ".") }
        }
    }

    /// A number for each run of a command, for `tagged(_:owner:run:)`.
    static func nextRun() -> UInt64 {
        runs.add(1, ordering: .relaxed).newValue
    }
    private static let runs = Atomic<UInt64>(0)

    /// Ends every process this daemon's spawns started, running commands included (the daemon is stopping): SIGTERM
    /// first, as i3blocks does, then SIGKILL for what is left after a moment.
    public static func endAll(within: TimeInterval = 2) {
        let prefix = tagVariable + "=" + tagPrefix
        end(within: within, includingRunning: true, gentle: true) { $0.hasPrefix(prefix) }
    }

    /// Reaps every exited child that no thread waits for: orphans that were reparented to the daemon and ended, and
    /// detached commands; only in a process the daemon owns (`reapsEveryChild`). Call it on SIGCHLD.
    public static func reapOrphans() {
        // The scan costs a read per process on the machine, and SIGCHLD comes with every command that ends: scan
        // only when the first exited child is not one a command thread is about to reap. One left behind that one
        // is reaped at a later SIGCHLD.
        guard reapsEveryChild.load(ordering: .relaxed) else { return }
        var info = siginfo_t()
        guard waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return }
        let exited = info._sifields._sigchld.si_pid
        guard exited != 0, !RunningCommands.pids.contains(exited) else { return }
        for child in unwaitedChildren(includingRunning: false) where child.state == "Z" {
            var status: Int32 = 0
            _ = waitpid(child.pid, &status, WNOHANG)
        }
    }

    /// `<daemon pid>.`: a process started by another daemon (a test's, a nested one) is not this one's to kill.
    private static let tagPrefix = "\(getpid())."

    private static func end(
        within: TimeInterval, includingRunning: Bool, gentle: Bool = false, matching: (String) -> Bool
    ) {
        let start = Date()
        let escalation = start.addingTimeInterval(gentle ? min(0.5, within / 2) : 0)
        let deadline = start.addingTimeInterval(within)
        var signalled: [pid_t: Int32] = [:]
        while true {
            var left = false
            for child in unwaitedChildren(includingRunning: includingRunning) {
                if child.state == "Z" {
                    var status: Int32 = 0
                    if reapsEveryChild.load(ordering: .relaxed) { _ = waitpid(child.pid, &status, WNOHANG) }
                    continue
                }
                guard let environment = readSmallFile("/proc/\(child.pid)/environ", limit: 1 << 20),
                    !environment.isEmpty
                else {
                    // No environment to read: the child is exiting (its memory goes before its own children are
                    // reparented to us, and before it is a zombie), e.g. a persist command the stop just ended. Its
                    // orphans are ours a moment later: wait for it rather than end the search before they show.
                    left = true
                    continue
                }
                guard let tag = ownerTag(in: environment), matching(tag) else { continue }
                left = true
                let signal = Date() < escalation ? SIGTERM : SIGKILL
                guard signalled[child.pid] != signal else { continue }
                signalled[child.pid] = signal
                // Its group when it leads one (a setsid'd process does), so its children go at once; any other
                // group is not its own to end (a script in the daemon's session could join the daemon's group, or a
                // shell's), and members of it that descend from it are orphaned to the daemon and found next round.
                if child.group == child.pid, child.group != getpgrp() { kill(-child.group, signal) }
                kill(child.pid, signal)
            }
            if !left || Date() >= deadline { return }
            usleep(5_000)
        }
    }

    /// A child of this process, from `/proc/PID/stat`.
    private struct Child {
        var pid: pid_t
        var state: Character
        var group: pid_t
    }

    /// This process's children, from a scan of `/proc/*/stat` (`/proc/PID/task/TID/children` needs a kernel option
    /// that is often off), leaving out the commands whose threads wait for them unless `includingRunning`.
    private static func unwaitedChildren(includingRunning: Bool) -> [Child] {
        let me = getpid()
        // Under the spawn lock a command is never half-registered: spawned but not yet in `RunningCommands`.
        return SpawnGuard.withLock {
            let running = includingRunning ? [] : RunningCommands.pids
            var children: [Child] = []
            guard let directory = opendir("/proc") else { return children }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard let pid = pid_t(name), pid != me, !running.contains(pid),
                    let child = status(of: pid), child.parent == me
                else { continue }
                children.append(Child(pid: pid, state: child.state, group: child.group))
            }
            return children
        }
    }

    /// State, parent and process group from `/proc/PID/stat`: `pid (comm) S ppid pgrp …`, where comm may hold
    /// spaces and parentheses, so the fields are read after its last `)`. Only those three are read: the stop scans
    /// every process on the machine, and splitting each file's fifty fields cost more than the rest of the scan.
    private static func status(of pid: pid_t) -> (state: Character, parent: pid_t, group: pid_t)? {
        guard let bytes = readSmallFile("/proc/\(pid)/stat"), let close = bytes.lastIndex(of: UInt8(ascii: ")")) else {
            return nil
        }
        // `) S ppid pgrp `: the state is the byte after the space that follows the parenthesis.
        var index = close + 2
        guard index < bytes.count else { return nil }
        let state = bytes[index]
        index += 1
        guard let parent = number(in: bytes, at: &index), let group = number(in: bytes, at: &index) else { return nil }
        return (Character(UnicodeScalar(state)), parent, group)
    }

    /// The decimal number after the space at `index` (a stat field; `-1` for no group), moving `index` past it.
    private static func number(in bytes: [UInt8], at index: inout Int) -> pid_t? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: " ") else { return nil }
        index += 1
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value: pid_t = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 9 {
            value = value * 10 + pid_t(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        return digits > 0 ? (negative ? -value : value) : nil
    }

    /// The `WIDGETD_SPAWN=…` entry of a process's environment (`/proc/PID/environ`), if it has one.
    private static func ownerTag(in bytes: [UInt8]) -> String? {
        let key = Array((tagVariable + "=").utf8)
        for entry in bytes.split(separator: 0) where entry.starts(with: key) {
            return String(decoding: entry, as: UTF8.self)
        }
        return nil
    }

    private static func readSmallFile(_ path: String, limit: Int = 4096) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = retryingInterrupted { read(descriptor, &buffer, buffer.count) }
            guard count > 0 else { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }
}
