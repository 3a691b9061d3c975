import Foundation

/// A fresh directory under `scratchRoot` (/dev/shm, or the system's temporary directory) for one test; tests run in
/// parallel, so none share one.
public struct TestDirectory {
    public let path: String

    public init() throws {
        var template = Array(
            (scratchRoot + "/widgetd-test-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = String(cString: created)
    }

    public func appending(_ name: String) -> String {
        path + "/" + name
    }

    /// Names in the directory, sorted, hidden ones included.
    public func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// `lstat(2)` of `path`, or nil when it does not exist.
public func fileStatus(_ path: String) -> stat? {
    var status = stat()
    return lstat(path, &status) == 0 ? status : nil
}
