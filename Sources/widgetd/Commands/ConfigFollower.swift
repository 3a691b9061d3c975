import Basics
import Config
import Kind
import System

/// Watches widgets.yaml for `widgetd bar` and, after each save, works out the blocks from the saved file.
///
/// The file's directory is watched, not the file: editors save by renaming a new file over the old one. Only
/// completed saves count (a file closed after writing, or renamed in), so a file caught half-written is not read.
final class ConfigFollower {
    let path: String
    private let registry: KindRegistry
    private let watcher: Inotify?
    private let warn: (String) -> Void
    private let select: (Configuration) -> BarCommand.Selection

    /// Without a watch (the directory cannot be watched) the blocks simply stay as they started.
    init(
        path: String, registry: KindRegistry, warn: @escaping (String) -> Void,
        select: @escaping (Configuration) -> BarCommand.Selection
    ) {
        self.path = path
        self.registry = registry
        self.warn = warn
        self.select = select
        let directory = Path.directory(of: path)
        let watcher = try? Inotify()
        if let watcher,
            (try? watcher.watch(directory: directory.isEmpty ? "." : directory, mask: [.closeWrite, .movedTo])) != nil
        {
            self.watcher = watcher
        } else {
            self.watcher = nil
        }
    }

    /// The descriptor to poll; nil when nothing is watched.
    var fileDescriptor: Int32? { watcher?.fileDescriptor }

    /// Called when the descriptor is readable: the blocks the saved file chooses, or nil when the events were about
    /// other files, or the saved file does not check or no longer has the chosen widgets (a warning says which).
    func edited() -> [BarItem]? {
        guard let watcher else { return nil }
        let name = Path.lastComponent(of: path)
        let events = watcher.readEvents()
        guard events.contains(where: { $0.name == name || $0.mask.contains(.queueOverflow) }) else { return nil }
        // The bar's loop must not stop for a FIFO put where the file was.
        let loaded = ConfigLoader.load(path: path, registry: registry, pipeWait: 0)
        guard let configuration = loaded.configuration else {
            warn("\(path) has errors; 'widgetd check' shows them; keeping the blocks shown")
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
