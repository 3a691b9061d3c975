import Glibc

/// The text of the file at `path`, read through a descriptor no child inherits (`O_CLOEXEC`).
///
/// Foundation's `String(contentsOfFile:)` opens without it: a child another test starts meanwhile takes the descriptor
/// with it, and the file stays open as long as that child runs. The writer's lease on that inode is then refused (a
/// reader has it), so the writer rightly goes by name instead of exchanging, and a test of the exchanges fails.
func fileText(_ path: String) throws -> String {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw FileTextError(path: path, errno: errno) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(descriptor, &chunk, chunk.count)
        if count < 0, errno == EINTR { continue }
        guard count >= 0 else { throw FileTextError(path: path, errno: errno) }
        if count == 0 { return String(decoding: bytes, as: UTF8.self) }
        bytes += chunk[..<count]
    }
}

/// Why `fileText` could not read a file.
struct FileTextError: Error {
    let path: String
    let errno: Int32
}
