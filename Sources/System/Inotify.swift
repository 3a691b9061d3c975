internal import CLinux
import Glibc

/// Watches directories for changes to the files in them (`inotify_init1`, `inotify_add_watch`).
///
/// Directories rather than files because editors save by writing a new file and renaming it over the old
/// one: a watch on the old file's inode would see it deleted and nothing after. A watch on the directory
/// sees `movedTo` with the file's name. The daemon watches the config file's directory; `widgetd show
/// --follow` watches the output directory; `widgetd reload --wait` watches the acknowledgement directory.
public final class Inotify: Sendable {
    /// The kinds of change to watch for and that events report (the `IN_*` bits).
    public struct Mask: OptionSet, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// A file opened for writing was closed (`IN_CLOSE_WRITE`): a save in place is complete.
        public static let closeWrite = Mask(rawValue: UInt32(IN_CLOSE_WRITE))
        /// A file was renamed into the directory (`IN_MOVED_TO`): a save by rename, an atomic output write.
        public static let movedTo = Mask(rawValue: UInt32(IN_MOVED_TO))
        /// A file was renamed out of the directory (`IN_MOVED_FROM`).
        public static let movedFrom = Mask(rawValue: UInt32(IN_MOVED_FROM))
        /// A file was created (`IN_CREATE`).
        public static let create = Mask(rawValue: UInt32(IN_CREATE))
        /// A file was deleted (`IN_DELETE`).
        public static let delete = Mask(rawValue: UInt32(IN_DELETE))
        /// A file was written (`IN_MODIFY`); usually `closeWrite` is what callers want.
        public static let modify = Mask(rawValue: UInt32(IN_MODIFY))
        /// The watched directory itself was deleted (`IN_DELETE_SELF`).
        public static let deleteSelf = Mask(rawValue: UInt32(IN_DELETE_SELF))
        /// The watched directory itself was moved (`IN_MOVE_SELF`).
        public static let moveSelf = Mask(rawValue: UInt32(IN_MOVE_SELF))
        /// Reported only: the watch is gone, because of `unwatch` or because the directory went away
        /// (`IN_IGNORED`).
        public static let ignored = Mask(rawValue: UInt32(IN_IGNORED))
        /// Reported only: the kernel's queue overflowed and events were lost; rescan everything
        /// (`IN_Q_OVERFLOW`, with no watch).
        public static let queueOverflow = Mask(rawValue: UInt32(IN_Q_OVERFLOW))
        /// Reported only: the entry named is a directory (`IN_ISDIR`).
        public static let isDirectory = Mask(rawValue: UInt32(IN_ISDIR))

        /// What makes a file's content change as an editor or an atomic writer saves it: closed after
        /// writing, renamed in, created or deleted.
        public static let fileChanges: Mask = [.closeWrite, .movedTo, .create, .delete]

        public var description: String {
            let names: [(Mask, String)] = [
                (.closeWrite, "closeWrite"), (.movedTo, "movedTo"), (.movedFrom, "movedFrom"), (.create, "create"),
                (.delete, "delete"), (.modify, "modify"), (.deleteSelf, "deleteSelf"), (.moveSelf, "moveSelf"),
                (.ignored, "ignored"), (.queueOverflow, "queueOverflow"), (.isDirectory, "isDirectory"),
            ]
            return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
        }
    }

    /// One watch, as `watch(directory:mask:)` returned it; events carry it to say which directory.
    public struct Watch: Hashable, Sendable {
        public let rawValue: Int32
    }

    /// One change: in which watched directory, what happened, and to which entry.
    public struct Event: Equatable, Sendable {
        /// The directory's watch; nil for `queueOverflow`, which belongs to no watch.
        public var watch: Watch?
        public var mask: Mask
        /// Pairs the `movedFrom` and `movedTo` halves of one rename; zero otherwise.
        public var cookie: UInt32
        /// The entry's name inside the directory; empty for events about the directory itself.
        /// A name that is not UTF-8 has its bad bytes replaced with U+FFFD.
        public var name: String
    }

    private let descriptor: FileDescriptor

    /// The inotify descriptor, for `poll()`.
    public var fileDescriptor: Int32 { descriptor.rawValue }

    /// Creates an inotify instance with no watches (`inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`).
    public init() throws(SystemError) {
        let raw = try systemCall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        descriptor = FileDescriptor(owning: raw)
    }

    /// Watches the directory at `path` for `mask` (`inotify_add_watch` with `IN_ONLYDIR`).
    ///
    /// Watching the same directory twice returns the same watch, with the new mask replacing the old one, or, with
    /// `adding`, joining it (`IN_MASK_ADD`), for a second user of a directory someone else may watch already.
    /// A path that is not a directory fails with `ENOTDIR`; a symbolic link to one is followed.
    @discardableResult
    public func watch(directory path: String, mask: Mask = .fileChanges, adding: Bool = false) throws(SystemError)
        -> Watch
    {
        let flags = UInt32(IN_ONLYDIR) | (adding ? UInt32(IN_MASK_ADD) : 0)
        let raw = try systemCall("inotify_add_watch", path) {
            inotify_add_watch(fileDescriptor, path, mask.rawValue | flags)
        }
        return Watch(rawValue: raw)
    }

    /// Stops a watch (`inotify_rm_watch`); an `ignored` event for it follows.
    public func unwatch(_ watch: Watch) throws(SystemError) {
        try systemCall("inotify_rm_watch") { inotify_rm_watch(fileDescriptor, watch.rawValue) }
    }

    /// Every event queued now (`read` until the queue is empty); empty when there are none. Never blocks.
    public func readEvents() -> [Event] {
        var events: [Event] = []
        // Room for many events at once; inotify never splits an event across reads, and this is far more than
        // one event's largest size (its header plus NAME_MAX + 1 bytes), so read never fails with EINVAL.
        let chunkSize = 64 * 1024
        let largestEvent = MemoryLayout<inotify_event>.size + Int(NAME_MAX) + 1
        while true {
            let bytes: [UInt8]
            do {
                bytes = try descriptor.read(upTo: chunkSize)
            } catch {
                precondition(error.errno == EAGAIN, "reading inotify cannot fail with \(error)")
                return events
            }
            if bytes.isEmpty { return events }
            events += Self.parse(bytes)
            // A read fills the buffer with as many events as fit: room left for the largest means the queue was
            // empty, and the read that would fail with EAGAIN is not needed.
            if bytes.count <= chunkSize - largestEvent { return events }
        }
    }

    /// Splits what one `read` returned into events: a `struct inotify_event` header, then `len` bytes of
    /// NUL-padded name.
    static func parse(_ bytes: [UInt8]) -> [Event] {
        let headerSize = MemoryLayout<inotify_event>.size
        let layout = MemoryLayout<inotify_event>.self
        let (wdOffset, maskOffset) = (layout.offset(of: \.wd)!, layout.offset(of: \.mask)!)
        let (cookieOffset, lengthOffset) = (layout.offset(of: \.cookie)!, layout.offset(of: \.len)!)
        var events: [Event] = []
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset + headerSize <= buffer.count {
                let wd = buffer.loadUnaligned(fromByteOffset: offset + wdOffset, as: Int32.self)
                let mask = buffer.loadUnaligned(fromByteOffset: offset + maskOffset, as: UInt32.self)
                let cookie = buffer.loadUnaligned(fromByteOffset: offset + cookieOffset, as: UInt32.self)
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + lengthOffset, as: UInt32.self))
                let nameStart = offset + headerSize
                let nameEnd = min(nameStart + length, buffer.count)
                let nameBytes = buffer[nameStart..<nameEnd].prefix { $0 != 0 }
                events.append(
                    Event(
                        watch: wd < 0 ? nil : Watch(rawValue: wd), mask: Mask(rawValue: mask), cookie: cookie,
                        name: String(decoding: nameBytes, as: UTF8.self)))
                offset = nameStart + length
            }
        }
        return events
    }
}
