import Foundation

/// The whole text of a file in /proc (`/proc/PID/maps`, `/proc/cpuinfo`), read to its end.
///
/// Not `String(contentsOfFile:)`: /proc gives its files a size of 0, and Foundation then reads one page, about 4 KB, so
/// a longer file comes back cut (a daemon's maps lists libraries a dlopen brought in well past that).
public func procFile(_ path: String) throws -> String {
    guard let file = FileHandle(forReadingAtPath: path) else {
        throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? file.close() }
    return String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
}
