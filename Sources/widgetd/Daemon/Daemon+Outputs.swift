import Foundation
import Scheduler

/// Files someone else deleted from the output directory come back at once: the writer skips unchanged entries, so
/// without this a deleted file (a tmpfs cleaner, a user's `rm`) would stay missing until its entry next changes,
/// which for a `.never` widget is never.
///
/// Only deletions are watched (`IN_DELETE`, and the directory's own removal): the daemon's writes are renames, which
/// raise neither, so swaps cost no extra wake-up.
extension Daemon {
    static let outputWatchMask: Inotify.Mask = [.delete, .deleteSelf, .moveSelf]

    func handleOutputEvents(_ events: [Inotify.Event]) {
        let mine = events.filter { $0.watch != nil && $0.watch == outputWatch }
        let overflow = events.contains { $0.mask.contains(.queueOverflow) }
        if mine.contains(where: { $0.mask.contains(.deleteSelf) || $0.mask.contains(.moveSelf) })
            || (overflow && access(paths.output, F_OK) != 0)
        {
            restoreOutputDirectory()
            return
        }
        let now = Date()
        if overflow {
            // Which deletions were lost is unknown: look for every file that should be there.
            for name in engine.instanceNames {
                guard let instance = engine.instance(named: name) else { continue }
                for suffix in instance.outputs.map(\.rawValue) + ["json"] {
                    restore(fileNamed: name + "." + suffix, now: now)
                }
            }
            return
        }
        for event in mine where event.mask.contains(.delete) {
            restore(fileNamed: event.name, now: now)
        }
    }

    /// Rewrites one file if it is missing and belongs to a configured instance; temporary files and the files of
    /// removed instances stay gone. The daemon's own removals (a restarted instance's old files) raise events too,
    /// but by the time they are read the new files are there.
    private func restore(fileNamed name: String, now: Date) {
        guard access(paths.output + "/" + name, F_OK) != 0 else { return }
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return }
        let instanceName = String(name[..<dot])
        let suffix = String(name[name.index(after: dot)...])
        guard let instance = engine.instance(named: instanceName) else { return }
        if suffix == "json" {
            log(.info, "\(name) was deleted: writing it again")
            writeRecord(of: instanceName)
        } else if let format = OutputFormat(rawValue: suffix), instance.outputs.contains(format),
            let content = engine.content(of: instanceName, at: now)
        {
            log(.info, "\(name) was deleted: writing it again")
            outputs.forget(fileNamed: name)
            write(instanceName, content: content, now: now)
        }
    }

    /// The whole output directory went: make it again, watch it again, and write every file.
    private func restoreOutputDirectory() {
        log(.warning, "\(paths.output) was deleted or moved: making it again and writing every widget's files")
        // A moved directory is still watched where it went; its events are not ours any more.
        if let old = outputWatch { try? watcher.unwatch(old) }
        outputWatch = nil
        do {
            try outputs.recreate()
            outputWatch = try watcher.watch(directory: paths.output, mask: Self.outputWatchMask)
        } catch {
            log(.error, "cannot make \(paths.output) again: \(error)")
            return
        }
        let now = Date()
        for name in engine.instanceNames {
            if let content = engine.content(of: name, at: now) { write(name, content: content, now: now) }
            writeRecord(of: name)
        }
    }
}
