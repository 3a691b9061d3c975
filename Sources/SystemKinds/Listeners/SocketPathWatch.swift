import Glibc

/// Waits for a server's socket to appear at its path (the session bus's, the sound server's), by inotify on the path's
/// directory, so that a missing server costs no wake-up while nothing happens. Used on the listener's own thread only
/// (the MPRIS listener's, the libpulse main loop's), which polls `fileDescriptor` while it has no connection.
///
/// A directory that does not exist yet (`$XDG_RUNTIME_DIR` before the login made it) is waited for the same way: its
/// nearest existing ancestor is watched for the next name on the way down, and the watches move down as the
/// directories appear (and back up if one is deleted or moved).
///
/// inotify directly from Glibc: SystemKinds does not depend on System, whose `Inotify` is the daemon's.
final class SocketPathWatch {
    /// What a watched directory reports: an entry made, moved in or changed (a socket made, or its permissions set, as
    /// a server starts), and the directory itself deleted or moved away. Directories only: a path whose directory turned
    /// into a file is watched further up.
    static let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// The sockets waited for, absolute and `normalized`.
    let paths: [String]
    /// The inotify descriptor, for `poll`.
    let fileDescriptor: Int32
    /// Each watch and the names in its directory that lead to a socket.
    private var watches: [Int32: Set<String>] = [:]

    /// Watches the directories of `paths` (absolute); nil when inotify cannot (no descriptor, or no watch left under
    /// the user's limit): the listener then tries again on a timer.
    init?(paths: [String]) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.paths = paths
        fileDescriptor = descriptor
        guard arm() else { return nil }
    }

    deinit { close(fileDescriptor) }

    /// Whether any of the sockets is there now (a server that refused while one is there may be starting up).
    var socketExists: Bool { paths.contains { access($0, F_OK) == 0 } }

    /// Whether the directories are watched: false once one could not be watched again (`readEvents`).
    var isWatching: Bool { !watches.isEmpty }

    /// Reads every queued event; true when one is about a path waited for (or events were lost), after moving the
    /// watches to where the paths' nearest existing directories now are. False for what happens to other entries of
    /// the same directories.
    func readEvents() -> Bool {
        var relevant = false
        // Aligned for `inotify_event`, and far larger than one event (its header and NAME_MAX + 1 bytes of name), so
        // that `read` never fails with EINVAL.
        let size = 16 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(fileDescriptor, buffer.baseAddress, size)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameEnd = min(nameStart + Int(event.len), count)
                let name = String(decoding: buffer[nameStart..<nameEnd].prefix { $0 != 0 }, as: UTF8.self)
                offset = nameEnd
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    relevant = true
                } else if let names = watches[event.wd] {
                    // The directory itself (deleted, moved, or its watch gone) or a name on the way to a socket.
                    relevant = relevant || name.isEmpty || names.contains(name)
                }
            }
        }
        if relevant { arm() }
        return relevant
    }

    /// Watches, for each path, its nearest existing directory, for the next name on the way to the socket; drops the
    /// watches no longer needed. False when a directory cannot be watched (permissions, the watch limit).
    @discardableResult
    private func arm() -> Bool {
        var armed: [Int32: Set<String>] = [:]
        for path in paths {
            var name = Self.lastComponent(of: path)
            var directory = Self.parent(of: path)
            while true {
                let watch = inotify_add_watch(fileDescriptor, directory, Self.mask)
                if watch >= 0 {
                    armed[watch, default: []].insert(name)
                    break
                }
                // Not there (or not a directory) yet: wait for it in its parent. "/" is always there.
                guard errno == ENOENT || errno == ENOTDIR, directory != "/" else {
                    drop(except: [:])
                    watches = [:]
                    return false
                }
                name = Self.lastComponent(of: directory)
                directory = Self.parent(of: directory)
            }
        }
        drop(except: armed)
        watches = armed
        return true
    }

    /// Removes the watches not in `kept`; their `IN_IGNORED` then belongs to no watch and is not heard.
    private func drop(except kept: [Int32: Set<String>]) {
        for watch in watches.keys where kept[watch] == nil { _ = inotify_rm_watch(fileDescriptor, watch) }
    }

    /// `path` with its empty components dropped (`/a//b/` → `/a/b`); nil unless it is absolute and names something
    /// below `/`, or when it has a `.` or `..` component, which would make the directory watched not the one the name
    /// is created in.
    static func normalized(_ path: String) -> String? {
        let components = path.split(separator: "/")
        guard path.hasPrefix("/"), !components.isEmpty, !components.contains(where: { $0 == "." || $0 == ".." })
        else { return nil }
        return "/" + components.joined(separator: "/")
    }

    /// `/a/b/c` → `/a/b`; `/a` → `/`.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// `/a/b/c` → `c`.
    static func lastComponent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
