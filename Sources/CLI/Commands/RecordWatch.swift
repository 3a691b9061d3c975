import Basics
import FoundationEssentials
import System

/// Watches one instance's record (`<output>/<name>.json`) and nothing else, so a follower wakes only when its own
/// widget changes.
///
/// A watch on the output directory would wake for every file in it: beside a per-second clock that is several
/// wake-ups a second (each of the clock's bar files is a temporary file created, written and renamed). So the record
/// file itself is watched, and since the daemon replaces it by renaming a new file over it, the old inode's
/// `IN_ATTRIB` (its link count dropped) says a new record is there; the path is then watched again. Only while the
/// record does not exist (before the daemon's first write, after the directory went) is the directory watched, by
/// `DirectoryWatch`, until the record appears. Beside the file, the directory is watched for its own deletion or move
/// only (`IN_DELETE_SELF`, `IN_MOVE_SELF`), which other files never raise: a moved directory takes the watched record
/// with it, and the daemon makes a new one where it was.
///
/// A follower also follows the record on the daemon's updates socket (`DaemonSubscription`), which only tells the
/// daemon to write a sampled widget's record; the record itself comes by this watch, which sees every daemon's write,
/// a restarted one's included, and costs the daemon nothing per follower. A per-widget subdirectory would change where
/// bars read their files.
struct RecordWatch {
    let directory: String
    let watcher: Inotify
    /// The records, all in `directory`.
    let paths: [String]
    private var fileWatches: [Inotify.Watch: String] = [:]
    private var selfWatch: Inotify.Watch?
    private var directoryWatch: DirectoryWatch?

    init(record path: String, in directory: String, on watcher: Inotify) throws(SystemError) {
        try self.init(records: [path], in: directory, on: watcher)
    }

    /// Watches several records of one directory (`widgetd bar`) on one inotify instance.
    init(records paths: [String], in directory: String, on watcher: Inotify) throws(SystemError) {
        self.paths = paths
        self.directory = directory
        self.watcher = watcher
        // The first directory watch must work (the directory exists: the caller made it); later ones may fall back.
        selfWatch = try watcher.watch(directory: directory, mask: [.deleteSelf, .moveSelf])
        rewatch(paths)
    }

    /// Takes in a batch of events; true when the record may have changed (re-read it).
    mutating func changed(_ events: [Inotify.Event]) -> Bool {
        !changedRecords(events).isEmpty
    }

    /// Takes in a batch of events; the records that may have changed (re-read them).
    mutating func changedRecords(_ events: [Inotify.Event]) -> Set<String> {
        let directoryGone = events.contains { $0.watch != nil && $0.watch == selfWatch }
        var replaced = directoryGone || events.contains(where: { $0.mask.contains(.queueOverflow) })
        if var watch = directoryWatch {
            replaced = watch.follow(events) || replaced
            directoryWatch = watch
        }
        if replaced {
            for watch in fileWatches.keys { try? watcher.unwatch(watch) }
            fileWatches = [:]
            if directoryGone, let old = selfWatch { try? watcher.unwatch(old) }
            if directoryGone { selfWatch = nil }
            rewatch(paths)
            return Set(paths)
        }
        var changed = Set<String>()
        // The kernel removed these watches itself (their file is gone): unwatching them would only fail.
        let removed = events.compactMap { $0.mask.contains(.ignored) ? $0.watch : nil }
        for event in events {
            // Replaced, written, deleted or moved: the next record, if any, is whatever the path names now.
            if let watch = event.watch, let path = fileWatches.removeValue(forKey: watch) {
                if !removed.contains(watch) { try? watcher.unwatch(watch) }
                changed.insert(path)
            }
        }
        if directoryWatch != nil {
            let names = Set(events.map(\.name))
            changed.formUnion(missing.filter { names.contains(Path.lastComponent(of: $0)) })
        }
        if !changed.isEmpty { rewatch(Array(changed)) }
        return changed
    }

    /// The records not watched now: they do not exist.
    private var missing: [String] {
        let watched = Set(fileWatches.values)
        return paths.filter { !watched.contains($0) }
    }

    /// Watches each record file that exists, and the directory (for their creation) only while one does not. After
    /// the directory watch is in place the missing files are tried once more, so a record made in between is not
    /// missed.
    private mutating func rewatch(_ paths: [String]) {
        for path in paths {
            if let watch = try? watcher.watch(file: path) { fileWatches[watch] = path }
        }
        guard !missing.isEmpty else {
            if directoryWatch != nil {
                directoryWatch?.stop()
                directoryWatch = nil
            }
            if selfWatch == nil {
                selfWatch = try? watcher.watch(directory: directory, mask: [.deleteSelf, .moveSelf])
            }
            return
        }
        guard directoryWatch == nil else { return }
        // The directory watch takes over the directory's watch (one per inode), with its own mask.
        selfWatch = nil
        directoryWatch = DirectoryWatch.resolving(directory, on: watcher)
        for path in missing {
            if let watch = try? watcher.watch(file: path) { fileWatches[watch] = path }
        }
        if missing.isEmpty {
            directoryWatch?.stop()
            directoryWatch = nil
            selfWatch = try? watcher.watch(directory: directory, mask: [.deleteSelf, .moveSelf])
        }
    }
}
