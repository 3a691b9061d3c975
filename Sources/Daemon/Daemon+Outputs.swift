import Basics
import FoundationEssentials
import Glibc
import System

/// Files someone else deleted from the output directory come back: the writer skips unchanged entries, so without
/// this a deleted file (a tmpfs cleaner, a user's `rm`) would stay missing until its entry next changes, which for a
/// `.never` widget is never.
///
/// Only deletions are watched (`IN_DELETE`, and the directory's own removal or move): the daemon's writes are
/// renames, which raise neither, so swaps cost no extra wake-up. The repair waits until deletions have stopped for
/// `repairDelay`, so an `rm -r` of the directory is not raced (it would fail with "Directory not empty") and the
/// directory comes back after it, whole.
extension Daemon {
    static let outputWatchMask: Inotify.Mask = [.delete, .deleteSelf, .moveSelf]
    static let repairDelay: TimeInterval = 0.2

    /// What is watched in the output directory's parent: its entries appearing, going or moving, so a directory put
    /// back where the output directory was (after it was deleted or swapped for a symbolic link) is noticed, and the
    /// parent's own removal or move.
    static let outputParentMask: Inotify.Mask = [.create, .movedTo, .delete, .movedFrom, .deleteSelf, .moveSelf]

    /// Watches the output directory, adding to any watch the config or zone already has on the same directory, and
    /// its parent once. With both watched, the writer skips checking the path before writes until these watches
    /// report a change (`OutputWriter.isWatched`).
    func watchOutputDirectory() {
        outputWatch = try? watcher.watch(directory: paths.output, mask: Self.outputWatchMask, adding: true)
        if outputParentWatch == nil {
            outputParentWatch = try? watcher.watch(
                directory: Self.parent(of: paths.output), mask: Self.outputParentMask, adding: true)
        }
        outputs.isWatched = outputWatch != nil && outputParentWatch != nil
    }

    /// The directory that holds `path`.
    private static func parent(of path: String) -> String {
        let trimmed = trimmed(path)
        let parent = Path.directory(of: trimmed)
        return parent.isEmpty ? "." : parent
    }

    /// `path` without trailing slashes.
    private static func trimmed(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    func handleOutputEvents(_ events: [Inotify.Event]) {
        let overflow = events.contains { $0.mask.contains(.queueOverflow) }
        let mine = events.filter { $0.watch != nil && $0.watch == outputWatch }
        let name = Path.lastComponent(of: Self.trimmed(paths.output))
        // Anything that may have changed what the path names (the directory's own events, its name in the parent,
        // the parent's own move or removal, a lost event): the writer checks the path again before its next write.
        let selfEvents: Inotify.Mask = [.deleteSelf, .moveSelf, .ignored]
        if overflow || mine.contains(where: { !$0.mask.intersection(selfEvents).isEmpty })
            || events.contains(where: { event in
                event.watch != nil && event.watch == outputParentWatch
                    && (event.name == name || !event.mask.intersection(selfEvents).isEmpty)
            })
        {
            outputs.directoryMayHaveChanged()
        }
        // Something came or went where the output directory is: a link put in its place, or a directory put back.
        if events.contains(where: { $0.watch != nil && $0.watch == outputParentWatch && $0.name == name }) {
            outputDirectoryReplaced = true
        }
        // The directory itself went (deleted, moved away); it may be back, as a new directory, before the repair.
        if mine.contains(where: { !$0.mask.intersection([.deleteSelf, .moveSelf, .ignored]).isEmpty }) {
            outputDirectoryReplaced = true
        }
        // The daemon's own temporary files (`.name.pid`, removed when a write fails) are not outputs: counting
        // them would retry a failing write (a full disk) every repair delay, forever.
        let deletions =
            outputDirectoryReplaced
            || mine.contains { $0.mask.contains(.delete) && !$0.name.hasPrefix(".") }
        guard overflow || deletions else { return }
        // Again from now: the repair comes once deletions have stopped.
        repairDue = clock.now.addingTimeInterval(Self.repairDelay)
    }

    /// Puts back what is missing: the whole directory (also when a new one took its place), or the files of
    /// configured instances.
    func repairOutputs() {
        repairDue = nil
        guard outputs.isCurrent, !outputDirectoryReplaced else {
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
        outputDirectoryReplaced = false
        // Still current: moved away and back, or the `create` our own mkdir raised in the parent. Only what failed
        // or went meanwhile is written (unchanged entries are skipped).
        if !outputs.isCurrent {
            log(.warning, "\(paths.output) was deleted or moved: making it again and writing every widget's files")
            // A moved directory is still watched where it went; its events are not ours any more. A watch the
            // config or zone shares stays.
            if let old = outputWatch, !(configWatcher.watches + [zoneWatch]).contains(old) {
                try? watcher.unwatch(old)
            }
            outputWatch = nil
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
