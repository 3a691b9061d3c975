import Basics
import System

/// Which inotify events mean widgets.yaml is to be read again, and the watches that see them.
///
/// widgets.yaml is followed through its directory (an editor's save-by-rename replaces the file's inode). Dotfile
/// managers and `rm -rf ~/.config/widgetd; mkdir …; cp …` replace the whole directory, whose watch then ends with it:
/// without more, the daemon would not see another save until it restarted. So when the directory goes, its parent is
/// watched until a directory is back under that name; only then, so that files made in `~/.config` by other programs
/// wake the daemon only while its own directory is missing. A config that is a symbolic link is also followed where it
/// points (`watchTarget`).
///
/// A re-read follows the event that asks for it at once: a save is complete when it is reported (a file closed after
/// writing, or renamed in), so there is nothing to wait for. The daemon does the re-reading and the logging
/// (`Daemon+ConfigWatch`); this type decides, and holds the watches, which it shares with the daemon's other watches of
/// the same directories (inotify gives one watch per directory): it never drops one another part holds.
struct ConfigWatcher {
    /// The config directory's own events: completed saves (a file closed after writing, or renamed in; not its
    /// creation, which `cp` follows with the writes, so it was read empty), a file deleted (`rm widgets.yaml`: the
    /// re-read says so and keeps the running configuration, where nothing was logged), and the directory going away.
    static let directoryMask: Inotify.Mask = [.closeWrite, .movedTo, .delete, .deleteSelf, .moveSelf]
    /// The parent's, while the config directory is missing: a directory made or moved in under its name.
    static let parentMask: Inotify.Mask = [.create, .movedTo]
    /// The linked file's directory: saves in place or by rename there.
    static let targetMask: Inotify.Mask = [.closeWrite, .movedTo]

    /// What the config directory's events say about the directory itself.
    enum DirectoryChange: Equatable {
        /// It was deleted or moved away (also when a new one is already back in its place).
        case gone
        /// A directory was made, or moved in, under its name while it was missing.
        case back
    }

    let path: String
    /// The config directory's watch; nil while the directory is missing.
    private(set) var directoryWatch: Inotify.Watch?
    /// The config directory's parent, only while the directory is missing, to see it made again.
    private(set) var parentWatch: Inotify.Watch?
    /// When widgets.yaml is a symbolic link (a dotfile manager's), the directory of the file it names, and that file:
    /// an edit in place there raises no event in the link's directory.
    private(set) var targetWatch: Inotify.Watch?
    private(set) var target: String?

    init(path: String) {
        self.path = path
    }

    /// The watched directory: the config's, "." for a bare file name.
    var directory: String {
        let directory = Path.directory(of: path)
        return directory.isEmpty ? "." : directory
    }

    /// Every watch held, for the daemon's other watchers not to drop one shared with this.
    var watches: [Inotify.Watch?] { [directoryWatch, parentWatch, targetWatch] }

    /// Watches the config's directory (again). The old directory's watch, moved away with it, is dropped: its events
    /// are not about the config any more. A directory that is not there is waited for through its parent's watch,
    /// taken before the directory is tried again so that one made in between is not missed, and dropped once the
    /// directory is watched. `others`: the daemon's other watches, which are never dropped.
    mutating func watchDirectory(with watcher: Inotify, others: [Inotify.Watch?]) {
        let previous = directoryWatch
        directoryWatch = try? watcher.watch(directory: directory, mask: Self.directoryMask, adding: true)
        let parent = Path.directory(of: directory)
        if directoryWatch == nil, directory != ".", directory != "/", !parent.isEmpty {
            parentWatch = try? watcher.watch(directory: parent, mask: Self.parentMask, adding: true)
            directoryWatch = try? watcher.watch(directory: directory, mask: Self.directoryMask, adding: true)
        }
        let others = others + [targetWatch]
        if let previous, previous != directoryWatch, !(others + [parentWatch]).contains(previous) {
            try? watcher.unwatch(previous)
        }
        if directoryWatch != nil, let parentWatch {
            if !(others + [directoryWatch]).contains(parentWatch) { try? watcher.unwatch(parentWatch) }
            self.parentWatch = nil
        }
    }

    /// Follows the file a symbolic link at widgets.yaml names (looked at again at every re-read, as the link may be
    /// pointed elsewhere), through that file's directory: stow's link into a dotfiles repository is edited there, in
    /// place or by rename, and the link's own directory sees nothing. One level of link (`SymbolicLink`): the end of
    /// home-manager's chain is in `/nix/store`, which is never edited and always busy. No extra watch when the config
    /// is no link.
    mutating func watchTarget(with watcher: Inotify, others: [Inotify.Watch?]) {
        let previous = targetWatch
        targetWatch = nil
        target = SymbolicLink.target(of: path)
        if let target {
            let directory = Path.directory(of: target)
            targetWatch = try? watcher.watch(
                directory: directory.isEmpty ? "." : directory, mask: Self.targetMask, adding: true)
        }
        if let previous, previous != targetWatch, !(others + [directoryWatch, parentWatch]).contains(previous) {
            try? watcher.unwatch(previous)
        }
    }

    /// Whether `events` say the config directory went, or came back while it was missing; nil when neither. Gone wins
    /// when both are there: the directory is watched again either way, and its loss is what is worth saying.
    func directoryChange(in events: [Inotify.Event]) -> DirectoryChange? {
        let name = Path.lastComponent(of: directory)
        let gone = events.contains { event in
            event.watch != nil && event.watch == directoryWatch
                && !event.mask.intersection([.deleteSelf, .moveSelf, .ignored]).isEmpty
        }
        if gone { return .gone }
        let back = events.contains { event in
            event.watch != nil && event.watch == parentWatch && event.name == name
                && !event.mask.intersection([.create, .movedTo]).isEmpty
        }
        return back ? .back : nil
    }

    /// Whether `events` ask for a re-read of the config: a save of it (in its directory, or of the linked file where it
    /// points), or events lost to an overflowing queue, among which a save may have been.
    func fileChanged(in events: [Inotify.Event]) -> Bool {
        let name = Path.lastComponent(of: path)
        let targetName = target.map(Path.lastComponent(of:))
        return events.contains { event in
            event.mask.contains(.queueOverflow)
                || (event.watch == directoryWatch && event.name == name)
                || (event.watch != nil && event.watch == targetWatch && event.name == targetName)
        }
    }
}
