import Foundation

/// Why a file could not be read, worded for a person.
public struct FileReadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { reason }
}

/// Whole-file reads that say plainly what went wrong.
public enum FileReading {
    /// The bytes of the file at `path`.
    public static func contents(of path: String) throws(FileReadError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileReadError(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw FileReadError(path: path, reason: "is a directory, not a file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileReadError(path: path, reason: "cannot read the file (permission denied?)")
        }
        return [UInt8](data)
    }
}
