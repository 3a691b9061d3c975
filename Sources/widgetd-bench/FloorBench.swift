import Foundation
import Glibc

/// What the kernel alone charges for a burst of atomic file replacements on the benchmark's tmpfs: `count` temporary
/// files created, written and closed, then renamed over existing files, with bare system calls and nothing else.
///
/// No program that replaces files atomically can land a burst faster, so this bounds the burst and the lateness of
/// entries that are all due at the same instant.
struct FloorResult {
    var count: Int
    /// Per round: creating, writing and closing `count` temporary files.
    var create: Summary
    /// Per round: renaming them over the existing files.
    var rename: Summary
    /// Per round: both.
    var total: Summary
}

enum FloorBench {
    static func run(count: Int, rounds: Int, root: String, name: String = "floor") throws -> FloorResult {
        let directory = root + "/" + name
        try makeDirectory(directory)
        let contents = Array("12:00:00\n".utf8)
        let finals = (0..<count).map { directory + "/c\($0).plain" }
        let temporaries = (0..<count).map { directory + "/.c\($0).plain.tmp" }
        for path in finals { try write(contents, to: path, flags: O_TRUNC) }
        var create: [Double] = []
        var rename: [Double] = []
        var total: [Double] = []
        for _ in 0..<rounds {
            let start = monotonic()
            for path in temporaries { try write(contents, to: path, flags: O_EXCL) }
            let written = monotonic()
            for (temporary, final) in zip(temporaries, finals) where Glibc.rename(temporary, final) != 0 {
                throw BenchError("rename \(temporary): \(String(cString: strerror(errno)))")
            }
            let renamed = monotonic()
            create.append(written - start)
            rename.append(renamed - written)
            total.append(renamed - start)
        }
        return FloorResult(count: count, create: Summary(create), rename: Summary(rename), total: Summary(total))
    }

    private static func write(_ bytes: [UInt8], to path: String, flags: Int32) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0o600)
        guard descriptor >= 0 else { throw BenchError("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard bytes.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            throw BenchError("write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
