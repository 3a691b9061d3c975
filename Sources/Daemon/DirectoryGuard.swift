import Basics
import FoundationEssentials
import System

/// When the output and runtime directories are looked at again and what went is made again, and the watches that say
/// so.
///
/// Someone else's deletions (a tmpfs cleaner, a user's `rm`, `rm -rf` of the whole directory) are watched; the repair
/// comes `repairDelay` after the last of them, so an `rm -r` is not raced (it would fail with "Directory not empty")
/// and the directory comes back after it, whole. The daemon's own writes are renames, which raise no watched event,
/// and its own temporary files (`.name.pid`) are not outputs: counting their removal would retry a failing write (a
/// full disk) every repair delay, for ever. No I/O besides the watches: the daemon repairs (`Daemon+Outputs`,
/// `Daemon+Runtime`), and tells this when it begins, which it may do before the deadline (SIGHUP).
struct DirectoryGuard {
    /// How long deletions must have stopped before what they removed is made again.
    static let repairDelay: TimeInterval = 0.2
    /// Only deletions in the output directory, and its own removal or move.
    static let outputMask: Inotify.Mask = [.delete, .deleteSelf, .moveSelf]
    /// What is watched in the output directory's parent: its entries appearing, going or moving, so a directory put
    /// back where the output directory was (after it was deleted or swapped for a symbolic link) is noticed, and the
    /// parent's own removal or move.
    static let outputParentMask: Inotify.Mask = [.create, .movedTo, .delete, .movedFrom, .deleteSelf, .moveSelf]
    static let runtimeMask: Inotify.Mask = [.delete, .movedFrom, .movedTo, .create, .deleteSelf, .moveSelf]
    /// The entries of the runtime directory whose loss or replacement is repaired.
    static let runtimeEntries: Set<String> = ["control", "updates", "lock", "acks", "status", "daemon.json"]
    private static let selfEvents: Inotify.Mask = [.deleteSelf, .moveSelf, .ignored]

    /// The output directory, as configured (maybe with trailing slashes).
    let output: String
    /// The runtime directory, which holds the FIFO and the lock.
    let runtime: String
    /// Deletions in the output directory, so deleted files are written again.
    private(set) var outputWatch: Inotify.Watch?
    /// The output directory's parent, for a directory (or a link) put where the output directory was.
    private(set) var outputParentWatch: Inotify.Watch?
    /// Deletions and replacements in the runtime directory (the FIFO, the lock).
    private(set) var runtimeWatch: Inotify.Watch?
    /// Deletions in `status/` (`StateFiles.statusFilesWent`); nil while it is not watched.
    private(set) var statusWatch: Inotify.Watch?
    static let statusMask: Inotify.Mask = [.delete, .deleteSelf, .moveSelf]
    /// When to put back deleted output files: `repairDelay` after the last deletion.
    private(set) var outputRepairDue: Date?
    /// The output directory itself was deleted or moved, or something came or went under its name, since the last
    /// repair: the repair makes it again (or takes the one put back) and writes every file.
    private(set) var outputReplaced = false
    /// When to make again what went from the runtime directory.
    private(set) var runtimeRepairDue: Date?

    init(output: String, runtime: String) {
        self.output = output
        self.runtime = runtime
    }

    /// Every watch held, for the daemon's other watchers not to drop one shared with this.
    var outputWatches: [Inotify.Watch?] { [outputWatch, outputParentWatch] }

    // MARK: - Watches

    /// Watches the output directory, adding to any watch another part already has on the same directory, and its
    /// parent once. Returns whether both are watched: then the writer skips checking the path before writes until
    /// these watches report a change (`OutputWriter.isWatched`).
    mutating func watchOutput(with watcher: Inotify) -> Bool {
        outputWatch = try? watcher.watch(directory: output, mask: Self.outputMask, adding: true)
        if outputParentWatch == nil {
            outputParentWatch = try? watcher.watch(
                directory: Self.parent(of: output), mask: Self.outputParentMask, adding: true)
        }
        return outputWatch != nil && outputParentWatch != nil
    }

    /// Lets go of the output directory's watch: the directory was moved, and is still watched where it went, whose
    /// events are not the daemon's any more. A watch in `others` (shared with another part) is kept.
    mutating func dropOutputWatch(with watcher: Inotify, others: [Inotify.Watch?]) {
        if let old = outputWatch, !others.contains(old) { try? watcher.unwatch(old) }
        outputWatch = nil
    }

    /// Watches the runtime directory (again). A directory moved away is still watched where it went; that watch is
    /// dropped, unless `others` or the output directory's share it. When it was also the output directory's parent's
    /// (the default output directory is in the runtime directory), that one is forgotten too, and taken again on the
    /// new directory by the next `watchOutput`: else a link or directory put where the output directory was would go
    /// unseen, while the writer, told both are watched, skips checking the path.
    mutating func watchRuntime(with watcher: Inotify, others: [Inotify.Watch?]) {
        let previous = runtimeWatch
        runtimeWatch = try? watcher.watch(directory: runtime, mask: Self.runtimeMask, adding: true)
        guard let previous, previous != runtimeWatch else { return }
        if !(others + [outputWatch]).contains(previous) { try? watcher.unwatch(previous) }
        if previous == outputParentWatch { outputParentWatch = nil }
    }

    /// Watches `status/` for status files someone deletes. Only deletions: the daemon's own writes rename a temporary
    /// file in it over the old one, which a watch of moves would see as a move at every write, and wake for. Returns
    /// whether it is watched.
    mutating func watchStatus(with watcher: Inotify) -> Bool {
        if let statusWatch { try? watcher.unwatch(statusWatch) }
        statusWatch = try? watcher.watch(directory: runtime + "/status", mask: Self.statusMask)
        return statusWatch != nil
    }

    // MARK: - Events

    /// Takes in `status/`'s events: whether a status file went, or events were lost. When the directory itself went,
    /// it is no longer watched until `watchStatus` (the runtime's repair makes it again).
    mutating func takeStatusEvents(_ events: [Inotify.Event]) -> (filesWent: Bool, stillWatched: Bool) {
        let mine = events.filter { $0.watch != nil && $0.watch == statusWatch }
        let gone = mine.contains { !$0.mask.intersection(Self.selfEvents).isEmpty }
        if gone { statusWatch = nil }
        // The daemon's own temporary files (`.name.pid`), removed after a failed write, are no status files.
        let went =
            gone || mine.contains { !$0.name.hasPrefix(".") } || events.contains { $0.mask.contains(.queueOverflow) }
        return (went, statusWatch != nil)
    }

    /// Takes in the output directory's events at `now`; a deletion (or lost events) puts the repair `repairDelay`
    /// after it. Returns whether what the path names may have changed (the directory's own events, its name in the
    /// parent, the parent's own move or removal, lost events): then the writer checks the path before its next write.
    mutating func takeOutputEvents(_ events: [Inotify.Event], now: Date) -> Bool {
        let overflow = events.contains { $0.mask.contains(.queueOverflow) }
        let mine = events.filter { $0.watch != nil && $0.watch == outputWatch }
        let name = Path.lastComponent(of: Self.trimmed(output))
        let inParent = events.filter { $0.watch != nil && $0.watch == outputParentWatch }
        let pathMayHaveChanged =
            overflow || mine.contains { !$0.mask.intersection(Self.selfEvents).isEmpty }
            || inParent.contains { $0.name == name || !$0.mask.intersection(Self.selfEvents).isEmpty }
        // Something came or went where the output directory is (a link put in its place, a directory put back), or
        // the directory itself went; it may be back, as a new directory, before the repair.
        if inParent.contains(where: { $0.name == name })
            || mine.contains(where: { !$0.mask.intersection(Self.selfEvents).isEmpty })
        {
            outputReplaced = true
        }
        let deletions = outputReplaced || mine.contains { $0.mask.contains(.delete) && !$0.name.hasPrefix(".") }
        if overflow || deletions {
            outputRepairDue = now.addingTimeInterval(Self.repairDelay)
        }
        return pathMayHaveChanged
    }

    /// Takes in the runtime directory's events at `now`. Returns whether one of its entries (or the directory itself)
    /// was touched: then the daemon lets go of its descriptors at once, as `acks/` or `status/` may be a link now, and
    /// the repair comes `repairDelay` later.
    mutating func takeRuntimeEvents(_ events: [Inotify.Event], now: Date) -> Bool {
        let overflow = events.contains { $0.mask.contains(.queueOverflow) }
        let touched = events.contains { event in
            guard let watch = event.watch, watch == runtimeWatch else { return false }
            return !event.mask.intersection(Self.selfEvents).isEmpty || Self.runtimeEntries.contains(event.name)
        }
        guard overflow || touched else { return false }
        runtimeRepairDue = now.addingTimeInterval(Self.repairDelay)
        return true
    }

    /// The wall clock was set: a repair waiting is put `repairDelay` after `now`, as the time it was due means nothing
    /// on the new clock.
    mutating func clockChanged(now: Date) {
        if outputRepairDue != nil { outputRepairDue = now.addingTimeInterval(Self.repairDelay) }
    }

    // MARK: - Repairs

    func outputRepairIsDue(now: Date) -> Bool { outputRepairDue.map { $0 <= now } ?? false }
    func runtimeRepairIsDue(now: Date) -> Bool { runtimeRepairDue.map { $0 <= now } ?? false }

    /// The output repair begins (due, or with the runtime's): nothing waits for one any more. Returns whether the
    /// directory was replaced since the last, which the repair makes good whole.
    mutating func beginOutputRepair() -> Bool {
        defer {
            outputRepairDue = nil
            outputReplaced = false
        }
        return outputReplaced
    }

    /// The runtime repair begins (due, or on SIGHUP): nothing waits for one any more.
    mutating func beginRuntimeRepair() {
        runtimeRepairDue = nil
    }

    // MARK: - Paths

    /// The directory that holds `path`.
    private static func parent(of path: String) -> String {
        let parent = Path.directory(of: trimmed(path))
        return parent.isEmpty ? "." : parent
    }

    /// `path` without trailing slashes.
    private static func trimmed(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
