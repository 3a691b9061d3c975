import Foundation

/// Writes `text` to `path` atomically (a new file renamed over it) through a descriptor closed on exec.
///
/// Foundation's `write(toFile:atomically:)` opens its file without `O_CLOEXEC`, so a process another test starts at
/// that moment can keep it open for writing; a script written that way then fails to start with ETXTBSY ("Text file
/// busy"), as a plugin of `pluginsAreFoundInTheDataDirectory…` did once.
public func writeFile(_ text: String, to path: String) throws {
    let temporary = path + ".\(UUID().uuidString).new"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    var failure: Int32?
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else {
            failure = count < 0 ? errno : EIO
            break
        }
        written += count
    }
    close(descriptor)
    if failure == nil, rename(temporary, path) != 0 { failure = errno }
    if let failure {
        unlink(temporary)
        throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
    }
}

/// A fresh directory for one test, removed when the value is dropped by the caller's `defer`.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = scratchRootURL.appendingPathComponent("widgetd-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func write(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try writeFile(text, to: path)
        return path
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
