import Foundation
import Glibc

/// The floor under "reload N = 1": what two processes handing a line through a FIFO and a file back through a rename
/// cost on this machine, with nothing else to do. A bare process (this benchmark started again with `echoFlag`) sleeps
/// in `poll()` on a FIFO, reads a line, and replaces `q0.plain` as the daemon does (create, write, close, rename); it
/// is timed exactly as the daemon is (`RequestBench.timeLines`: the write to the FIFO → the rename read by an inotify
/// thread), so the difference between the two figures is the daemon's own work.
enum ReloadFloorBench {
    /// The hidden first argument that makes `widgetd-bench` the bare process: `--reload-floor-echo FIFO DIRECTORY`.
    static let echoFlag = "--reload-floor-echo"

    static func run(samples: Int, root: String, name: String) throws -> Summary {
        let directory = root + "/" + name
        let output = directory + "/out"
        let fifo = directory + "/control"
        try makeDirectory(directory)
        try makeDirectory(output)
        guard mkfifo(fifo, 0o600) == 0 else { throw BenchError("mkfifo \(fifo): \(String(cString: strerror(errno)))") }
        let watcher = try RenameWatcher([output])
        defer { watcher.stop() }
        let echo = try Child(
            [benchmarkPath(), echoFlag, fifo, output], environment: ProcessInfo.processInfo.environment)
        defer { echo.stop() }
        // Ready once its read end is open: a writer's open would fail with ENXIO before that.
        guard waitUntil(timeout: 10, interval: 0.01, { Self.hasReader(fifo) }) else {
            throw BenchError("the floor's process did not open \(fifo)")
        }
        sleepSeconds(0.5)
        return try RequestBench.timeLines(
            fifo: fifo, watcher: watcher, targets: ["q0"], samples: samples, line: { "reload \($0)\n" },
            logTail: { "" })
    }

    /// The bare process: never returns. Its buffer and file name are made once; each line costs `poll`, `read`,
    /// `openat`, `write`, `close` and `renameat`.
    static func echo(fifo: String, directory: String) -> Never {
        var reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        let held = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard reader >= 0, held >= 0 else { exit(1) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 65536, alignment: 16)
        let contents = Array("Keep the streak alive.\n".utf8)
        var entry = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        while true {
            entry.revents = 0
            guard poll(&entry, 1, -1) > 0 else { continue }
            let got = read(reader, buffer, 65536)
            if got == 0 {
                // Every writer left: a fresh read end, or poll reports the hang-up for ever.
                let fresh = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
                close(reader)
                reader = fresh
                entry.fd = fresh
                continue
            }
            guard got > 0 else { continue }
            let file = openat(held, ".q0.plain.tmp", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard file >= 0 else { continue }
            _ = contents.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            close(file)
            renameat(held, ".q0.plain.tmp", held, "q0.plain")
        }
    }

    /// Whether someone has `fifo` open for reading: a non-blocking open for writing succeeds only then.
    private static func hasReader(_ fifo: String) -> Bool {
        let writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard writer >= 0 else { return false }
        close(writer)
        return true
    }
}
