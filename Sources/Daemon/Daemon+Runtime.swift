import Control
import FoundationEssentials
import Glibc
import Runtime
import System

/// The runtime directory, its control FIFO and lock stay the daemon's own while it runs.
///
/// A FIFO deleted or replaced (a tmpfs cleaner, a user's `rm`), or the whole directory removed, would otherwise leave
/// the daemon deaf: running, but unreachable by every client. Deletions and renames in the directory, and the
/// directory's own removal, are watched; a moment after they stop (`DirectoryGuard`: an `rm -rf` is not raced) and on
/// SIGHUP, the daemon checks each piece by device and inode and makes again what went, with the same checks as at
/// start-up (the user's own, not a link, closed to others). `acks/` and `status/` are written by descriptor
/// (`RuntimeDirectory`): at once on such an event the daemon lets go of them, and a link found in their place is
/// refused and logged, never written through; once it is removed, the repair makes the directory again.
///
/// The lock decides who owns the directory. A daemon that lost its lock file takes a new one; if another daemon took
/// it first (started while the directory was gone), that one owns the directory now and this one stops, removing
/// nothing of the newcomer's. So one daemon serves a runtime directory, however it was removed.
extension Daemon {
    func watchRuntimeDirectory() {
        directoryGuard.watchRuntime(with: watcher, others: configWatcher.watches + [zoneWatch])
        // The output directory's parent was the old runtime directory (the default), whose watch went with it.
        if directoryGuard.outputParentWatch == nil { watchOutputDirectory() }
    }

    func handleRuntimeEvents(_ events: [Inotify.Event]) {
        // At once, not at the repair: acks/ or status/ may be a link now, and the next write must look again.
        if directoryGuard.takeRuntimeEvents(events, now: clock.now) { stateFiles.releaseRuntimeDirectory() }
        let status = directoryGuard.takeStatusEvents(events)
        if status.filesWent { stateFiles.statusFilesWent() }
        stateFiles.statusDeletionsWatched = status.stillWatched
    }

    /// Watches `status/` for deleted status files (`StateFiles.statusDeletionsWatched`), once it is made.
    func watchStatusDirectory() {
        stateFiles.statusDeletionsWatched = directoryGuard.watchStatus(with: watcher)
    }

    /// Makes again the runtime directory, lock, FIFO and subdirectories where they went or were replaced.
    func repairRuntime() {
        directoryGuard.beginRuntimeRepair()
        let control = paths.control
        do {
            try control.prepareDirectory()
        } catch {
            log(
                .error,
                "cannot make \(control.directory) again: \(error); widgetd cannot be reached until it can "
                    + "(send SIGHUP to try again)")
            return
        }
        watchRuntimeDirectory()
        if !lock.isInPlace {
            do {
                lock = try LockFile(path: control.lock)
                log(.warning, "\(control.lock) was deleted or replaced: took the lock again")
            } catch {
                if case .alreadyRunning(let pid) = error {
                    log(
                        .error,
                        "another widgetd\(pid.map { " (pid \($0))" } ?? "") took \(control.directory) while "
                            + "this one's lock was gone; leaving it to that one and stopping")
                    stopping = true
                } else {
                    log(.error, "cannot take \(control.lock) again: \(error)")
                }
                return
            }
        }
        // The output directory in the runtime directory (the default) went with it: it is made again before the FIFO,
        // so a client that finds the FIFO back finds a daemon that can write. Its own repair waits for deletions
        // there to stop; those in the runtime directory have stopped, or this repair would not be running.
        if directoryGuard.outputRepairDue != nil, paths.output.hasPrefix(control.directory + "/") { repairOutputs() }
        if fifo?.isInPlace != true || fifo?.isOpen != true {
            do {
                fifo = try ControlFIFO(path: control.fifo)
                log(.warning, "\(control.fifo) was deleted or replaced: listening on it again")
            } catch {
                log(.error, "cannot make the control FIFO again: \(error); send SIGHUP to try again")
            }
        }
        repairUpdatesSocket()
        stateFiles.releaseRuntimeDirectory()
        var statusMadeAgain = false
        for entry in RuntimeDirectory.Entry.allCases {
            do {
                let made = try stateFiles.make(entry)
                statusMadeAgain = statusMadeAgain || (made && entry == .status)
                if entry == .status { watchStatusDirectory() }
            } catch {
                // A link (or another's directory) is never written through: its files wait until it is fixed.
                log(
                    .error,
                    "\(error); \(entry == .status ? "'widgetd list' shows no status" : "'--wait' cannot be confirmed") "
                        + "until it is fixed")
            }
        }
        if DaemonState.read(from: control)?.pid != getpid() {
            stateFiles.writeRunningConfig(runningConfigText, now: clock.now)
            writeState()
        }
        if statusMadeAgain {
            for name in engine.instanceNames { writeStatus(of: name, now: clock.now) }
        }
    }
}
