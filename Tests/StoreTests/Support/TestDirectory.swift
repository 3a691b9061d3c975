import Foundation
import TestSupport

/// A fresh directory under `scratchRoot` (/dev/shm, or the system's temporary directory) for one test; tests run in
/// parallel, so none share one.
struct TestDirectory {
    let path: String

    init() throws {
        var template = Array(
            (scratchRoot + "/widgetd-store-test-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = String(cString: created)
    }

    /// Deletes the directory and everything in it; call with `defer` right after creating it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the directory.
    func appending(_ name: String) -> String {
        path + "/" + name
    }

    /// The usual store file in this directory.
    var storePath: String { appending("store.sqlite") }
}

/// `stat(2)` of `path`, or nil when it does not exist.
func fileStatus(_ path: String) -> stat? {
    var status = stat()
    return stat(path, &status) == 0 ? status : nil
}
