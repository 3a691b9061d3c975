import Basics
import Glibc
import System

/// widgets.yaml is followed through its directory (an editor's save-by-rename replaces the file's inode). Dotfile
/// managers and `rm -rf ~/.config/widgetd; mkdir …; cp …` replace the whole directory, whose watch then ends with it:
/// without more, the daemon would not see another save until it restarted. So when the directory goes, its parent is
/// watched until a directory is back under that name; only then, so that files made in `~/.config` by other programs
/// wake the daemon only while its own directory is missing.
extension Daemon {
    /// The config directory's own events: completed saves (a file closed after writing, or renamed in; not its
    /// creation, which `cp` follows with the writes, so it was read empty), a file deleted (`rm widgets.yaml`: the
    /// re-read says so and keeps the running configuration, where nothing was logged), and the directory going away.
    static let configWatchMask: Inotify.Mask = [.closeWrite, .movedTo, .delete, .deleteSelf, .moveSelf]
    /// The parent's, while the config directory is missing: a directory made or moved in under its name.
    static let configParentWatchMask: Inotify.Mask = [.create, .movedTo]

    /// The watched directory: the config's, "." for a bare file name.
    var configDirectory: String {
        let directory = Path.directory(of: configPath)
        return directory.isEmpty ? "." : directory
    }

    /// Watches the config's directory (again). The old directory's watch, moved away with it, is dropped: its events
    /// are not about the config any more. A directory that is not there is waited for through its parent's watch,
    /// taken before the directory is tried again so that one made in between is not missed, and dropped once the
    /// directory is watched.
    func watchConfigDirectory() {
        let previous = configWatch
        configWatch = try? watcher.watch(directory: configDirectory, mask: Self.configWatchMask, adding: true)
        let parent = Path.directory(of: configDirectory)
        if configWatch == nil, configDirectory != ".", configDirectory != "/", !parent.isEmpty {
            configParentWatch = try? watcher.watch(directory: parent, mask: Self.configParentWatchMask, adding: true)
            configWatch = try? watcher.watch(directory: configDirectory, mask: Self.configWatchMask, adding: true)
        }
        let others = [zoneWatch, outputWatch, outputParentWatch, runtimeWatch, configTargetWatch]
        if let previous, previous != configWatch, !(others + [configParentWatch]).contains(previous) {
            try? watcher.unwatch(previous)
        }
        if configWatch != nil, let parentWatch = configParentWatch {
            if !(others + [configWatch]).contains(parentWatch) { try? watcher.unwatch(parentWatch) }
            configParentWatch = nil
        }
    }

    /// Follows the file a symbolic link at widgets.yaml names (read again at every re-read, as the link may be
    /// pointed elsewhere), through that file's directory: stow's link into a dotfiles repository is edited there, in
    /// place or by rename, and the link's own directory sees nothing. One level of link (`SymbolicLink`): the end of
    /// home-manager's chain is in `/nix/store`, which is never edited and always busy. No extra watch when the config
    /// is no link.
    func watchConfigTarget() {
        let previous = configTargetWatch
        configTargetWatch = nil
        configTarget = SymbolicLink.target(of: configPath)
        if let target = configTarget {
            let directory = Path.directory(of: target)
            configTargetWatch = try? watcher.watch(
                directory: directory.isEmpty ? "." : directory, mask: [.closeWrite, .movedTo], adding: true)
        }
        let others = [configWatch, configParentWatch, zoneWatch, outputWatch, outputParentWatch, runtimeWatch]
        if let previous, previous != configTargetWatch, !others.contains(previous) {
            try? watcher.unwatch(previous)
        }
    }

    /// The config directory went (its watch says so) or came back (its parent's says so): watched again, and, when
    /// it is back with a config in it, that config is read, as the save that put it there may have come before the
    /// new watch. Returns whether the config was re-read.
    func handleConfigDirectoryEvents(_ events: [Inotify.Event]) -> Bool {
        let name = Path.lastComponent(of: configDirectory)
        let gone = events.contains { event in
            event.watch != nil && event.watch == configWatch
                && !event.mask.intersection([.deleteSelf, .moveSelf, .ignored]).isEmpty
        }
        let back = events.contains { event in
            event.watch != nil && event.watch == configParentWatch && event.name == name
                && !event.mask.intersection([.create, .movedTo]).isEmpty
        }
        guard gone || back else { return false }
        watchConfigDirectory()
        guard configWatch != nil, access(configPath, F_OK) == 0 else {
            if gone { log(.warning, "\(configDirectory) went away: following \(configPath) again when it is back") }
            return false
        }
        log(.info, "\(configDirectory) was replaced: re-reading \(configPath)")
        reloadConfiguration()
        return true
    }
}
