import Dispatch
import Foundation
import System

/// Every text a daemon's output file showed, read at each write of it (inotify on its directory) on a dispatch queue of
/// its own, so that a text shown for only a second is seen even while the test's own thread waits for the pool.
///
/// `waitFor` reads the file when the test's task resumes, which on a busy machine can be more than a second after the
/// write: a test that must see one particular text of a sequence (a position counting on each second) looks here.
final class FileVersions {
    private let state: State
    private let source: any DispatchSourceRead

    /// Starts recording `name` in `directory` from what it shows now.
    init(of name: String, in directory: String) throws {
        let state = State(inotify: try Inotify(), path: directory + "/" + name, name: name)
        _ = try state.inotify.watch(directory: directory, mask: [.closeWrite, .movedTo])
        source = DispatchSource.makeReadSource(fileDescriptor: state.inotify.fileDescriptor, queue: state.queue)
        // The handlers keep `state`, and with it the inotify descriptor, until the source is cancelled.
        source.setEventHandler { state.drain() }
        source.setCancelHandler { _ = state }
        state.queue.sync { state.look() }
        source.activate()
        self.state = state
    }

    deinit { source.cancel() }

    /// The texts it showed so far, in order, each once in a row.
    var texts: [String] {
        state.queue.sync { state.texts }
    }

    /// Whether it showed `first` and later `then`.
    func showed(_ first: String, then: String) -> Bool {
        let seen = texts
        guard let index = seen.firstIndex(of: first) else { return false }
        return seen[index...].contains(then)
    }

    /// What the source's handler and the readers share; touched only on `queue`.
    private final class State: @unchecked Sendable {
        let queue = DispatchQueue(label: "widgetdTests.FileVersions")
        let inotify: Inotify
        let path: String
        let name: String
        var texts: [String] = []

        init(inotify: Inotify, path: String, name: String) {
            self.inotify = inotify
            self.path = path
            self.name = name
        }

        func drain() {
            if inotify.readEvents().contains(where: { $0.name == name }) { look() }
        }

        func look() {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), text != texts.last else { return }
            texts.append(text)
        }
    }
}
