import Basics
import FoundationEssentials
import Glibc
import System

/// Files someone else deleted from the output directory come back: the writer skips unchanged entries, so without
/// this a deleted file (a tmpfs cleaner, a user's `rm`) would stay missing until its entry next changes, which for a
/// `.never` widget is never.
///
/// Only deletions are watched, and when to repair is `DirectoryGuard`'s to say: a moment after deletions stop.
extension Daemon {
    /// Watches the output directory and its parent (`DirectoryGuard.watchOutput`).
    func watchOutputDirectory() {
        outputs.isWatched = directoryGuard.watchOutput(with: watcher)
    }

    func handleOutputEvents(_ events: [Inotify.Event]) {
        if directoryGuard.takeOutputEvents(events, now: clock.now) { outputs.directoryMayHaveChanged() }
    }

    /// Puts back what is missing: the whole directory (also when a new one took its place), or the files of
    /// configured instances.
    func repairOutputs() {
        let replaced = directoryGuard.beginOutputRepair()
        guard outputs.isCurrent, !replaced else {
            restoreOutputDirectory()
            return
        }
        let now = clock.now
        // A deleted line comes back at the turn's end; rewriting them all costs a file a bar.
        barLines.rewriteAll()
        for name in engine.instanceNames {
            guard let instance = engine.instance(named: name) else { continue }
            var missing = false
            for format in instance.outputs where access(paths.output + "/" + name + "." + format.rawValue, F_OK) != 0 {
                outputs.forget(fileNamed: name + "." + format.rawValue)
                missing = true
            }
            if missing, let content = engine.content(of: name, at: now) {
                log(.info, "\(name)'s files were deleted: writing them again")
                write(name, content: content, now: now)
            }
            if access(paths.output + "/" + name + ".json", F_OK) != 0 {
                outputs.forget(fileNamed: name + ".json")
                writeRecord(of: name)
            }
        }
    }

    /// The whole output directory went or was replaced: make it again (or take the directory put back), watch it
    /// again, and write every file. A symbolic link or a foreign directory in its place is refused, and nothing is
    /// written until a proper directory is back, which the parent's watch notices.
    private func restoreOutputDirectory() {
        // Still current: moved away and back, or the `create` our own mkdir raised in the parent. Only what failed
        // or went meanwhile is written (unchanged entries are skipped).
        if !outputs.isCurrent {
            log(.warning, "\(paths.output) was deleted or moved: making it again and writing every widget's files")
            // A watch the config or zone shares stays.
            directoryGuard.dropOutputWatch(with: watcher, others: configWatcher.watches + [zoneWatch])
            do {
                try outputs.recreate()
            } catch {
                log(
                    .error,
                    "writing no widget's files until \(paths.output) is a directory of this user's again: \(error)")
                return
            }
            watchOutputDirectory()
        }
        let now = clock.now
        barLines.rewriteAll()
        for name in engine.instanceNames {
            if let instance = engine.instance(named: name) {
                for format in instance.outputs
                where access(paths.output + "/" + name + "." + format.rawValue, F_OK) != 0 {
                    outputs.forget(fileNamed: name + "." + format.rawValue)
                }
            }
            if let content = engine.content(of: name, at: now) { write(name, content: content, now: now) }
            writeRecord(of: name)
        }
    }
}
