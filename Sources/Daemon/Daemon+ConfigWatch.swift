import Glibc
import System

/// widgets.yaml followed through inotify: `ConfigWatcher` decides which events ask for a re-read and holds the watches;
/// here they are taken, and the re-read done and logged.
extension Daemon {
    /// The daemon's watches other than the config's, which the config's watcher must not drop when it shares one.
    private var watchesBesidesTheConfig: [Inotify.Watch?] {
        directoryGuard.outputWatches + [zoneWatch, directoryGuard.runtimeWatch]
    }

    /// Watches the config's directory (again), or its parent while it is missing (`ConfigWatcher.watchDirectory`).
    func watchConfigDirectory() {
        configWatcher.watchDirectory(with: watcher, others: watchesBesidesTheConfig)
    }

    /// Follows the file a symbolic link at widgets.yaml names (`ConfigWatcher.watchTarget`).
    func watchConfigTarget() {
        configWatcher.watchTarget(with: watcher, others: watchesBesidesTheConfig)
    }

    /// Re-reads widgets.yaml when `events` ask for it: its directory went or came back (watched again, and, when it is
    /// back with a config in it, that config read, as the save that put it there may have come before the new watch),
    /// or it was saved.
    func handleConfigEvents(_ events: [Inotify.Event]) {
        if let change = configWatcher.directoryChange(in: events) {
            watchConfigDirectory()
            if configWatcher.directoryWatch != nil, access(configPath, F_OK) == 0 {
                log(.info, "\(configWatcher.directory) was replaced: re-reading \(configPath)")
                reloadConfiguration()
                return
            }
            if change == .gone {
                log(.warning, "\(configWatcher.directory) went away: following \(configPath) again when it is back")
            }
        }
        if configWatcher.fileChanged(in: events) {
            log(.info, "\(configPath) changed: re-reading it")
            reloadConfiguration()
        }
    }
}
