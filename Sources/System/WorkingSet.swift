import CLinux
import Glibc
import Synchronization

/// Handing back the pages a long-running process mapped only to start: the Linux counterpart of Windows'
/// `EmptyWorkingSet`, for the read-only file mappings (code, constants) alone.
///
/// Start-up runs code that the daemon never runs again (the argument parser, the YAML reader, the config's checks,
/// the loader's resolvers in libc and libm), and the kernel maps a whole block of the file around every page it
/// faults in. Those pages stay mapped, and counted in the daemon's resident set, for as long as it runs. `trim()`
/// unmaps them (`madvise(MADV_DONTNEED)`): they stay in the page cache, shared with every other process that maps
/// the same files, and a page the loop needs again is mapped again by its next fault, from the cache. What stays
/// resident is what the daemon runs while it runs. The pages are clean copies of their files, so nothing is lost;
/// a mapping holding a page of its own (a written copy: a relocated constant, a debugger's breakpoint) is left alone.
///
/// Only the files mapped at start (`recordStartupFiles()`: the executable and the libraries it was linked with) are
/// trimmed, because they stay mapped while the process runs. A library loaded later can be unloaded, and another
/// loaded at its addresses, between the read of `smaps` and the `madvise`: the store loads SQLite when it opens a
/// connection and unloads it after the last one. Trimming those addresses then would throw away the new library's
/// relocated pages, and its next call would jump to an unrelocated address.
public enum WorkingSet {
    /// A mapping `trim()` unmaps: its start and end addresses.
    public struct Region: Equatable, Sendable {
        public var start: UInt
        public var end: UInt

        public init(start: UInt, end: UInt) {
            self.start = start
            self.end = end
        }
    }

    /// The paths of the files mapped when `recordStartupFiles()` was called.
    private static let startupFiles = Mutex<Set<[UInt8]>?>(nil)

    /// Records which files are mapped now, for `trim()`: call it first in `main`, before anything can load a library.
    public static func recordStartupFiles() {
        guard let maps = try? FileDescriptor.open("/proc/self/maps", O_RDONLY).readToEnd(chunkSize: 65536) else {
            return
        }
        let paths = maps.split(separator: UInt8(ascii: "\n")).compactMap { MappingHeader($0)?.path }
            .filter { $0.first == UInt8(ascii: "/") }
        // The same mapping once its file is replaced (a package upgrade under a running daemon) is "PATH (deleted)".
        let files = Set(paths.flatMap { [Array($0), Array($0) + Array(" (deleted)".utf8)] })
        startupFiles.withLock { $0 = files }
    }

    /// Unmaps the read-only, private mappings of the files mapped at start that hold no page of their own
    /// (`regions(inSmaps:of:)`); nothing unless `recordStartupFiles()` was called.
    ///
    /// Call it last before sleeping: code run after it is faulted in again, and the kernel maps a block of the file
    /// (up to 64 kB) around each such page.
    public static func trim() {
        guard let files = startupFiles.withLock({ $0 }) else { return }
        trim(files: files)
    }

    /// Unmaps the read-only, private mappings of `files` that hold no page of their own: files that stay mapped.
    public static func trim(files: Set<[UInt8]>) {
        guard let smaps = readSmaps() else { return }
        let found = regions(inSmaps: smaps, of: files)
        let bounds = found.flatMap { [$0.start, $0.end] }
        _ = bounds.withUnsafeBufferPointer { widgetd_unmap_regions($0.baseAddress, found.count) }
    }

    /// The mappings of `/proc/PID/smaps` text that are safe to unmap: readable, not writable, private, backed by one
    /// of `files` (a path, not `[vdso]` or anonymous memory), and with no anonymous page (`Anonymous: 0 kB`: nothing
    /// was written into a copy of the file's page, which unmapping would lose).
    public static func regions(inSmaps smaps: [UInt8], of files: Set<[UInt8]>) -> [Region] {
        var found: [Region] = []
        var candidate: Region?
        var anonymous = -1
        func close() {
            if let region = candidate, anonymous == 0 { found.append(region) }
            candidate = nil
        }
        // A mapping's first line starts with its address, in lowercase hex; its twenty-odd other lines with a field's
        // name, capitalised. Only first lines are split into fields and only `Anonymous:` lines are read: most lines
        // are neither.
        smaps.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < bytes.count {
                var end = bytes.count
                if let newline = memchr(base + start, 0x0A, bytes.count - start) {
                    end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                }
                if MappingHeader.isHexDigit(base[start]) {
                    close()
                    if let header = MappingHeader(smaps[start..<end]), header.isReadOnlyPrivateFile,
                        files.contains(Array(header.path))
                    {
                        candidate = Region(start: header.start, end: header.end)
                    }
                    anonymous = -1
                } else if candidate != nil, end - start > anonymousField.count,
                    memcmp(base + start, anonymousField, anonymousField.count) == 0
                {
                    anonymous = kilobytes(smaps[(start + anonymousField.count)..<end]) ?? -1
                }
                start = end + 1
            }
        }
        close()
        return found
    }

    private static let anonymousField = Array("Anonymous:".utf8)

    /// The number of a field's `   123 kB` value.
    private static func kilobytes(_ value: ArraySlice<UInt8>) -> Int? {
        var number = 0
        var digits = 0
        for byte in value where byte != UInt8(ascii: " ") {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? number : nil
    }

    /// A mapping's first line: `start-end perms offset dev inode [path]`.
    private struct MappingHeader {
        var start: UInt
        var end: UInt
        var permissions: ArraySlice<UInt8>
        var path: ArraySlice<UInt8>

        init?(_ line: ArraySlice<UInt8>) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, let dash = fields[0].firstIndex(of: UInt8(ascii: "-")),
                let start = Self.hex(fields[0][..<dash]), let end = Self.hex(fields[0][(dash + 1)...]), start < end,
                fields[1].count == 4
            else { return nil }
            self.start = start
            self.end = end
            permissions = fields[1]
            path = fields.count == 6 ? fields[5].drop(while: { $0 == UInt8(ascii: " ") }) : []
        }

        var isReadOnlyPrivateFile: Bool {
            let flags = Array(permissions)
            return flags[0] == UInt8(ascii: "r") && flags[1] == UInt8(ascii: "-") && flags[3] == UInt8(ascii: "p")
                && path.first == UInt8(ascii: "/")
        }

        static func isHexDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        }

        static func hex(_ digits: ArraySlice<UInt8>) -> UInt? {
            guard !digits.isEmpty, digits.count <= 16 else { return nil }
            var value: UInt = 0
            for byte in digits {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                default: return nil
                }
                value = value << 4 | UInt(digit)
            }
            return value
        }
    }

    /// `/proc/self/smaps`, whole; nil when it cannot be read (no procfs).
    private static func readSmaps() -> [UInt8]? {
        guard let file = try? FileDescriptor.open("/proc/self/smaps", O_RDONLY) else { return nil }
        return try? file.readToEnd(chunkSize: 65536)
    }
}
