import Foundation
import Glibc
import System
import TestSupport
import Testing

/// `WorkingSet`: which mappings a trim may unmap, and that unmapping them loses nothing.
@Suite("working set trim")
struct WorkingSetTests {
    static let smaps = """
        55d0a0000000-55d0a0200000 r--p 00000000 fe:01 1234 /usr/bin/widgetd
        Rss:                 192 kB
        Anonymous:             0 kB
        55d0a0200000-55d0a0c00000 r-xp 00200000 fe:01 1234 /usr/bin/widgetd
        Size:              10240 kB
        Rss:                4260 kB
        Anonymous:             0 kB
        55d0a0c00000-55d0a0c58000 r--p 00c00000 fe:01 1234 /usr/bin/widgetd
        Rss:                 352 kB
        Anonymous:           352 kB
        55d0a0c58000-55d0a0e00000 rw-p 00c58000 fe:01 1234 /usr/bin/widgetd
        Rss:                1132 kB
        Anonymous:           160 kB
        55d0a1000000-55d0a1100000 rw-p 00000000 00:00 0                          [heap]
        Anonymous:          1024 kB
        7f00000000-7f00010000 r-xp 00000000 00:00 0
        Anonymous:             0 kB
        7f10000000-7f10100000 r-xp 00028000 fe:01 99 /tmp/a library (deleted)
        Rss:                  64 kB
        Anonymous:             0 kB
        7f20000000-7f20001000 r--s 00000000 fe:01 77 /dev/shm/shared
        Anonymous:             0 kB
        7f30000000-7f30010000 r-xp 00000000 fe:01 55 /usr/lib/libm.so.6
        Rss:                  16 kB
        7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0                  [vdso]
        Anonymous:             0 kB

        """

    @Test func onlyReadOnlyPrivateFileMappingsWithNoPageOfTheirOwnAreChosen() {
        let regions = WorkingSet.regions(inSmaps: Array(Self.smaps.utf8), of: Self.everyFile)
        #expect(
            regions == [
                .init(start: 0x55d0_a000_0000, end: 0x55d0_a020_0000),  // constants, never written
                .init(start: 0x55d0_a020_0000, end: 0x55d0_a0c0_0000),  // code
                .init(start: 0x7f_1000_0000, end: 0x7f_1010_0000),  // a deleted file's code: its pages live on
            ])
        // Left alone: relocated constants (pages of its own), writable data, the heap, anonymous code, a shared
        // mapping, a mapping whose Anonymous line is missing (not known safe), the vDSO.
    }

    /// Every path in `smaps`, so that only the mapping's kind decides.
    static let everyFile: Set<[UInt8]> = Set(
        ["/usr/bin/widgetd", "/tmp/a library (deleted)", "/dev/shm/shared", "/usr/lib/libm.so.6", "/x"].map {
            Array($0.utf8)
        })

    /// A library loaded after start may be unloaded and another loaded at its addresses between the read of `smaps`
    /// and the trim: only the files mapped at start are chosen.
    @Test func onlyTheFilesAskedForAreChosen() {
        let regions = WorkingSet.regions(inSmaps: Array(Self.smaps.utf8), of: [Array("/usr/bin/widgetd".utf8)])
        #expect(
            regions == [
                .init(start: 0x55d0_a000_0000, end: 0x55d0_a020_0000),
                .init(start: 0x55d0_a020_0000, end: 0x55d0_a0c0_0000),
            ])
        #expect(WorkingSet.regions(inSmaps: Array(Self.smaps.utf8), of: []).isEmpty)
    }

    @Test func garbageChoosesNothing() {
        for text in [
            "", "\n\n", "zz-yy r-xp 0 0 0 /x\nAnonymous: 0 kB", "10-5 r-xp 0 0 0 /x\nAnonymous: 0 kB",
            "10-20 r-x 0 0 0 /x\nAnonymous: 0 kB", "Anonymous: 0 kB",
        ] {
            #expect(WorkingSet.regions(inSmaps: Array(text.utf8), of: Self.everyFile).isEmpty, "\(text)")
        }
    }

    /// Whether each page of `count` at `address` is mapped in this process (`/proc/self/pagemap`, bit 63).
    static func present(_ address: UnsafeRawPointer, pages count: Int) throws -> [Bool] {
        let pagemap = try FileDescriptor.open("/proc/self/pagemap", O_RDONLY)
        var entries = [UInt64](repeating: 0, count: count)
        let offset = off_t(UInt(bitPattern: address) / UInt(getpagesize()) * 8)
        let read = entries.withUnsafeMutableBytes { pread(pagemap.rawValue, $0.baseAddress, $0.count, offset) }
        try #require(read == count * 8)
        return entries.map { $0 >> 63 == 1 }
    }

    @Test func aTrimUnmapsCleanFilePagesAndKeepsEveryByte() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let page = Int(getpagesize())
        let pages = 64
        let bytes = (0..<(pages * page)).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / page) }
        let path = directory.appending("file")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = try FileDescriptor.open(path, O_RDONLY)
        let size = pages * page
        let clean = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, file.rawValue, 0))
        let written = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, file.rawValue, 0))
        let relocated = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, file.rawValue, 0))
        defer {
            munmap(clean, size)
            munmap(written, size)
            munmap(relocated, size)
        }
        try #require(clean != MAP_FAILED && written != MAP_FAILED && relocated != MAP_FAILED)
        // Read one byte of each page, as code is run: every page is mapped.
        let firstBytes = stride(from: 0, to: size, by: page).map { clean.load(fromByteOffset: $0, as: UInt8.self) }
        #expect(firstBytes == stride(from: 0, to: size, by: page).map { bytes[$0] })
        written.storeBytes(of: 0xAB, toByteOffset: 5, as: UInt8.self)
        // Written, then made read-only: as the loader leaves relocated constants (RELRO).
        relocated.storeBytes(of: 0xCD, toByteOffset: 9, as: UInt8.self)
        try #require(mprotect(relocated, size, PROT_READ) == 0)
        #expect(try Self.present(clean, pages: pages).allSatisfy { $0 }, "read: every page is mapped")

        // This file's mappings alone: the test process's libraries are the other tests' to load and unload.
        let mappedPath = try #require(
            realpath(path, nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            })
        WorkingSet.trim(files: [Array(mappedPath.utf8)])

        #expect(try Self.present(clean, pages: pages).allSatisfy { !$0 }, "trimmed: no page is mapped")
        #expect(try Self.present(relocated, pages: 1) == [true], "a page of its own stays mapped")
        #expect(Array(UnsafeRawBufferPointer(start: clean, count: size)) == bytes, "faulted in again, whole")
        #expect(written.load(fromByteOffset: 5, as: UInt8.self) == 0xAB)
        #expect(relocated.load(fromByteOffset: 9, as: UInt8.self) == 0xCD)
        #expect(relocated.load(fromByteOffset: 10, as: UInt8.self) == bytes[10])
    }
}
