import Basics
import Config
import Kind
import System

/// Watches widgets.yaml for `widgetd bar` and, after each save, works out the blocks from the saved file.
///
/// The file's directory is watched, not the file: editors save by renaming a new file over the old one. Only
/// completed saves count (a file closed after writing, or renamed in), so a file caught half-written is not read.
/// When widgets.yaml is a symbolic link, the directory of the file it names is watched too, as the daemon does
/// (`Daemon+ConfigWatch`): a dotfiles repository is edited there.
final class ConfigFollower {
    let path: String
    private let registry: KindRegistry
    private let watcher: Inotify?
    private let warn: (String) -> Void
    private let select: (Configuration) -> BarCommand.Selection
    /// The command that checks this file, for the warning about a save with errors.
    private let checkCommand: String
    /// The names of saved files that are this config: the link's, and the linked file's.
    private let names: Set<String>

    /// Without a watch (the directory cannot be watched) the blocks simply stay as they started.
    init(
        path: String, registry: KindRegistry, checkCommand: String, warn: @escaping (String) -> Void,
        select: @escaping (Configuration) -> BarCommand.Selection
    ) {
        self.path = path
        self.registry = registry
        self.checkCommand = checkCommand
        self.warn = warn
        self.select = select
        let target = SymbolicLink.target(of: path)
        let watched = [path] + (target.map { [$0] } ?? [])
        names = Set(watched.map(Path.lastComponent(of:)))
        let watcher = try? Inotify()
        if let watcher, (try? Self.watchDirectories(of: watched, on: watcher)) != nil {
            self.watcher = watcher
        } else {
            self.watcher = nil
        }
    }

    private static func watchDirectories(of paths: [String], on watcher: Inotify) throws(SystemError) {
        for path in paths {
            let directory = Path.directory(of: path)
            _ = try watcher.watch(directory: directory.isEmpty ? "." : directory, mask: [.closeWrite, .movedTo])
        }
    }

    /// The descriptor to poll; nil when nothing is watched.
    var fileDescriptor: Int32? { watcher?.fileDescriptor }

    /// Called when the descriptor is readable: the blocks the saved file chooses, or nil when the events were about
    /// other files, or the saved file does not check or no longer has the chosen widgets (a warning says which).
    func edited() -> [BarItem]? {
        guard let watcher else { return nil }
        let events = watcher.readEvents()
        guard events.contains(where: { names.contains($0.name) || $0.mask.contains(.queueOverflow) }) else {
            return nil
        }
        // The bar's loop must not stop for a FIFO put where the file was.
        let loaded = ConfigLoader.load(path: path, registry: registry, pipeWait: 0)
        guard let configuration = loaded.configuration else {
            warn("\(path) has errors; '\(checkCommand)' shows them; keeping the blocks shown")
            return nil
        }
        switch select(configuration) {
        case .success(let items): return items
        case .failure(let message):
            warn(message)
            return nil
        }
    }
}
