import Foundation
import Glibc

/// A child process started with `posix_spawn`, in a process group of its own so that it and everything it
/// started can be stopped together.
final class Child {
    let pid: pid_t
    let argv: [String]
    private var exited = false

    /// Where a child's standard output goes.
    enum Output {
        case null
        case file(String)
        /// A pipe whose read end is handed back in `pipeReadEnd`.
        case pipe
        /// Ours.
        case inherit
    }

    /// As `stderr`: the child writes to our standard error.
    static let inherit = "<inherit>"

    /// The read end of the child's stdout when `.pipe` was asked for.
    private(set) var pipeReadEnd: Int32 = -1
    /// The write end of the child's stdin when `stdinPipe` was asked for (i3blocks reads clicks there).
    private(set) var stdinWriteEnd: Int32 = -1

    init(
        _ argv: [String], environment: [String: String], stdout: Output = .null, stderr: String? = nil,
        stdinPipe: Bool = false
    ) throws {
        self.argv = argv
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var inputEnds: [Int32] = [-1, -1]
        if stdinPipe {
            guard makePipe(&inputEnds) else { throw BenchError("pipe2: \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, inputEnds[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        var pipeEnds: [Int32] = [-1, -1]
        switch stdout {
        case .null:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .inherit:
            break
        case .pipe:
            guard makePipe(&pipeEnds) else { throw BenchError("pipe2: \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        }
        if stderr != Self.inherit {
            posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group; default signal dispositions and an empty mask, whatever ours are.
        var defaults = sigset_t()
        sigfillset(&defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let arguments = argv.map { strdup($0) } + [nil]
        let environmentStrings = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            environmentStrings.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawnp(&child, argv[0], &actions, &attributes, arguments, environmentStrings)
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        if inputEnds[0] >= 0 { close(inputEnds[0]) }
        guard status == 0 else {
            if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
            if inputEnds[1] >= 0 { close(inputEnds[1]) }
            throw BenchError("cannot start \(argv[0]): \(String(cString: strerror(status)))")
        }
        pid = child
        pipeReadEnd = pipeEnds[0]
        stdinWriteEnd = inputEnds[1]
    }

    /// Writes `text` to the child's stdin pipe; false when it is gone.
    @discardableResult
    func send(_ text: String) -> Bool {
        guard stdinWriteEnd >= 0 else { return false }
        return text.withCString { write(stdinWriteEnd, $0, strlen($0)) } > 0
    }

    /// Whether it is still running (not yet reaped).
    var isRunning: Bool {
        if exited { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exited = true
            return false
        }
        return true
    }

    /// Waits for it to exit; returns its exit status (or 128 + signal).
    @discardableResult
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        exited = true
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }

    /// SIGTERM to its process group, then SIGKILL after `grace` seconds if it is still there; reaps it.
    func stop(grace: Double = 5) {
        guard !exited else { return }
        kill(-pid, SIGTERM)
        if !waitUntil(timeout: grace, interval: 0.01, { !isRunning }) {
            kill(-pid, SIGKILL)
            wait()
        }
        // Anything of its group still alive (persist blocks' loops) goes too.
        kill(-pid, SIGKILL)
        if stdinWriteEnd >= 0 {
            close(stdinWriteEnd)
            stdinWriteEnd = -1
        }
    }

    /// Runs `argv` to completion; returns the exit status and the wall time it took.
    static func run(
        _ argv: [String], environment: [String: String], stdout: Output = .null, stderr: String? = nil
    ) throws -> (status: Int32, seconds: Double) {
        let start = monotonic()
        let child = try Child(argv, environment: environment, stdout: stdout, stderr: stderr)
        let status = child.wait()
        return (status, monotonic() - start)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reads i3blocks' status lines (one JSON array of blocks per line) from its stdout pipe on a thread of its own,
/// and counts the updates they deliver: a block whose `full_text` differs from the one the previous line gave it.
///
/// Lines alone would undercount: when many blocks change together i3blocks prints one line for all of them.
final class BlockUpdateCounter: @unchecked Sendable {
    // @unchecked: `lineCount` and `changeCount` are only touched under `lock`.
    private let lock = NSLock()
    private var lineCount = 0
    private var changeCount = 0
    /// The wall-clock time the last complete line was read, taken when `read()` returned.
    private var lastLineTime = 0.0
    private let descriptor: Int32
    /// A hash of each block's last text, by the number in its name (`b17` → 17).
    private var last: [UInt64]

    /// `nameKey`: what names a block, followed by its number: i3blocks' `"name":"b` (sections `[b17]`), or
    /// `widgetd bar`'s `"instance":"b` (widgets `b17`, all named `widgetd`).
    init(descriptor: Int32, blocks: Int, nameKey: String = #""name":"b"#) {
        self.descriptor = descriptor
        self.nameKey = Array(nameKey.utf8)
        last = Array(repeating: 0, count: blocks)
        let thread = Thread { [self] in self.pump() }
        thread.start()
    }

    /// Lines printed and block updates delivered so far.
    var counts: (lines: Int, updates: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (lineCount, changeCount)
    }

    /// Lines printed so far, and when the last one was read.
    var lastLine: (count: Int, time: Double) {
        lock.lock()
        defer { lock.unlock() }
        return (lineCount, lastLineTime)
    }

    private func pump() {
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var line: [UInt8] = []
        line.reserveCapacity(1 << 20)
        while true {
            let got = Glibc.read(descriptor, buffer, size)
            let now = realtime()
            if got == -1 && errno == EINTR { continue }
            guard got > 0 else {
                close(descriptor)  // end of file: every writer is gone
                return
            }
            let bytes = UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: UInt8.self), count: got)
            var start = 0
            for index in 0..<got where bytes[index] == 10 {
                line.append(contentsOf: bytes[start..<index])
                let changes = line.withUnsafeBufferPointer { changed(in: $0) }
                lock.lock()
                lineCount += 1
                changeCount += changes
                lastLineTime = now
                lock.unlock()
                line.removeAll(keepingCapacity: true)
                start = index + 1
            }
            line.append(contentsOf: bytes[start..<got])
        }
    }

    private static let textKey = Array(#""full_text":""#.utf8)
    private let nameKey: [UInt8]

    /// The blocks of one line whose text changed since the previous line; remembers the new texts.
    private func changed(in line: UnsafeBufferPointer<UInt8>) -> Int {
        var changes = 0
        var index = 0
        let count = line.count
        func matches(_ key: [UInt8], at position: Int) -> Bool {
            guard position + key.count <= count else { return false }
            for offset in 0..<key.count where line[position + offset] != key[offset] { return false }
            return true
        }
        while index < count {
            guard line[index] == 34, matches(Self.textKey, at: index) else {
                index += 1
                continue
            }
            // FNV-1a of the text, up to the closing quote (escapes skipped as pairs).
            index += Self.textKey.count
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            while index < count, line[index] != 34 {
                if line[index] == 92 { index += 1 }
                if index < count { hash = (hash ^ UInt64(line[index])) &* 0x100_0000_01b3 }
                index += 1
            }
            // The block's name follows within its object.
            while index < count, line[index] != 125, !(line[index] == 34 && matches(nameKey, at: index)) {
                index += 1
            }
            guard index < count, line[index] == 34 else { continue }
            index += nameKey.count
            var number = 0
            while index < count, line[index] >= 48, line[index] <= 57 {
                number = number * 10 + Int(line[index] - 48)
                index += 1
            }
            if number < last.count, last[number] != hash {
                last[number] = hash
                changes += 1
            }
        }
        return changes
    }
}

/// `pipe(2)` with both ends close-on-exec (Glibc's module does not import `pipe2`).
func makePipe(_ ends: inout [Int32]) -> Bool {
    guard pipe(&ends) == 0 else { return false }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return true
}

/// This benchmark's own executable, for the bare processes it starts again under a hidden flag (the reload and swap
/// floors).
func benchmarkPath() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return length > 0
        ? String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        : CommandLine.arguments[0]
}
