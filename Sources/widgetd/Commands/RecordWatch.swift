import Foundation
import Scheduler

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
/// Measured on the benchmark's machine, this beats the alternatives for a follower: a per-widget subdirectory would
/// change where bars read their files, and a Unix-socket subscription to the daemon would wake the daemon for every
/// follower and leave followers blind while the daemon restarts, where the file watch sees the restarted daemon's
/// first write.
struct RecordWatch {
    let path: String
    let directory: String
    let watcher: Inotify
    private var fileWatch: Inotify.Watch?
    private var selfWatch: Inotify.Watch?
    private var directoryWatch: DirectoryWatch?

    init(record path: String, in directory: String, on watcher: Inotify) throws(SystemError) {
        self.path = path
        self.directory = directory
        self.watcher = watcher
        // The first watch must work (the directory exists: the caller made it); later ones may fall back.
        if let watch = try? watcher.watch(file: path) {
            fileWatch = watch
            selfWatch = try watcher.watch(directory: directory, mask: [.deleteSelf, .moveSelf])
        } else {
            directoryWatch = try DirectoryWatch(directory, on: watcher)
            rewatch()
        }
    }

    /// Takes in a batch of events; true when the record may have changed (re-read it).
    mutating func changed(_ events: [Inotify.Event]) -> Bool {
        if events.contains(where: { $0.mask.contains(.queueOverflow) }) {
            rewatch()
            return true
        }
        if let watch = fileWatch {
            let directoryGone = events.contains { $0.watch != nil && $0.watch == selfWatch }
            guard directoryGone || events.contains(where: { $0.watch == watch }) else { return false }
            // Replaced, written, deleted or moved: the next record, if any, is whatever the path names now.
            try? watcher.unwatch(watch)
            fileWatch = nil
            if directoryGone, let old = selfWatch { try? watcher.unwatch(old) }
            if directoryGone { selfWatch = nil }
            rewatch()
            return true
        }
        guard var directoryWatch else { return false }
        let name = (path as NSString).lastPathComponent
        let replaced = directoryWatch.follow(events)
        self.directoryWatch = directoryWatch
        guard replaced || events.contains(where: { $0.name == name }) else { return false }
        rewatch()
        return true
    }

    /// Watches the record file if it exists, and the directory (for its creation) only while it does not. After the
    /// directory watch is in place the file is tried once more, so a record made in between is not missed.
    private mutating func rewatch() {
        for _ in 0..<2 {
            if let watch = try? watcher.watch(file: path) {
                fileWatch = watch
                directoryWatch?.stop()
                directoryWatch = nil
                selfWatch = try? watcher.watch(directory: directory, mask: [.deleteSelf, .moveSelf])
                return
            }
            // The directory watch takes over the same directory's watch (one per inode), with its own mask.
            selfWatch = nil
            if directoryWatch == nil { directoryWatch = DirectoryWatch.resolving(directory, on: watcher) }
        }
    }
}
