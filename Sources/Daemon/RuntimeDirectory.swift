import Control
import FoundationEssentials
import Glibc
import System

/// The runtime directory and the two the daemon writes in there, `acks/` and `status/`, held open so that no write or
/// removal of the daemon's follows a link it did not make.
///
/// Each is opened without following a link (`O_NOFOLLOW`; the two by name from the runtime directory's descriptor) and
/// checked on what was opened: a directory of the user's, closed to others (`ControlPaths.openDirectory`). Files are
/// written and removed relative to the descriptors (`renameat`, `unlinkat`), so a link put in a directory's place is
/// refused with the reason and nothing is written until a proper directory is back; a write meanwhile goes to the
/// directory that was checked, or fails. Renames and deletions in the runtime directory are watched
/// (`Daemon+Runtime`): they `release()` the descriptors, and the next write opens the directories again, with the
/// checks. Only `make` makes one that is missing, at start-up and in the runtime's repair.
struct RuntimeDirectory {
    enum Entry: Hashable, CaseIterable {
        case acknowledgements, status

        var name: String {
            switch self {
            case .acknowledgements: "acks"
            case .status: "status"
            }
        }
    }

    let control: ControlPaths
    private var runtime: FileDescriptor?
    private var held: [Entry: FileDescriptor] = [:]

    init(control: ControlPaths) {
        self.control = control
    }

    /// `entry`'s path; nil: the runtime directory's.
    func path(of entry: Entry?) -> String {
        entry.map { control.directory + "/" + $0.name } ?? control.directory
    }

    /// The descriptor of `entry` (nil: of the runtime directory), opened and checked when not held.
    mutating func descriptor(of entry: Entry?) throws(ControlPathError) -> Int32 {
        let runtime = try runtimeDescriptor()
        guard let entry else { return runtime }
        if let held = held[entry] { return held.rawValue }
        let opened = try ControlPaths.openDirectory(entry.name, in: runtime, path: path(of: entry))
        held[entry] = opened
        return opened.rawValue
    }

    /// Makes `entry` in the runtime directory where it is missing, and holds it.
    /// - Returns: whether it was made now.
    @discardableResult
    mutating func make(_ entry: Entry) throws(ControlPathError) -> Bool {
        let (opened, made) = try ControlPaths.makeDirectory(
            entry.name, in: try runtimeDescriptor(), path: path(of: entry))
        held[entry] = opened
        return made
    }

    /// Forgets every descriptor: a name in the runtime directory changed, or the directory itself went.
    mutating func release() {
        runtime = nil
        held = [:]
    }

    /// The names in `entry`, `.` and `..` left out; none when it cannot be used.
    mutating func names(in entry: Entry) -> [String] {
        guard let directory = try? descriptor(of: entry) else { return [] }
        // `closedir` closes the descriptor it was given: a copy, so the held one stays open.
        let copy = dup(directory)
        guard copy >= 0, let listing = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(listing) }
        // The copy shares the held descriptor's offset, which an earlier listing left at the end.
        rewinddir(listing)
        var names: [String] = []
        while let item = readdir(listing) {
            let name = withUnsafeBytes(of: item.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The contents of the file `name` in `entry` (nil: in the runtime directory), if it is a file there.
    mutating func contents(of name: String, in entry: Entry?) -> [UInt8]? {
        guard let directory = try? descriptor(of: entry) else { return nil }
        let file = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        return try? FileDescriptor(owning: file).readToEnd()
    }

    /// Whether `entry` (nil: the runtime directory) has an entry `name`; false when the directory cannot be used.
    mutating func exists(_ name: String, in entry: Entry?) -> Bool {
        guard let directory = try? descriptor(of: entry) else { return false }
        return faccessat(directory, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Removes the file `name` from `entry` (nil: from the runtime directory); nothing when that cannot be used.
    mutating func remove(_ name: String, from entry: Entry?) {
        guard let directory = try? descriptor(of: entry) else { return }
        unlinkat(directory, name, 0)
    }

    /// Removes every file in `entry`.
    mutating func removeEveryFile(in entry: Entry) {
        for name in names(in: entry) { remove(name, from: entry) }
    }

    private mutating func runtimeDescriptor() throws(ControlPathError) -> Int32 {
        if let runtime { return runtime.rawValue }
        let opened = try ControlPaths.openDirectory(control.directory, path: control.directory)
        runtime = opened
        return opened.rawValue
    }
}
