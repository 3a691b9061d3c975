import FoundationEssentials
import YAML

/// Why a file could not be read, worded for a person.
public struct FileReadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { reason }
}

/// Whole-file reads that say plainly what went wrong.
public enum FileReading {
    /// The bytes of the file at `path`; with `limit`, a larger file is refused before it is read, naming its size.
    public static func contents(of path: String, atMost limit: Int? = nil) throws(FileReadError) -> [UInt8] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileReadError(path: path, reason: "no such file")
        }
        guard !isDirectory else {
            throw FileReadError(path: path, reason: "is a directory, not a file")
        }
        if let limit, let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
            size > limit
        {
            throw tooLarge(path: path, size: size, limit: limit)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileReadError(path: path, reason: "cannot read the file (permission denied?)")
        }
        // A file that grew after the size check, or one without a size (a pipe).
        if let limit, data.count > limit {
            throw tooLarge(path: path, size: data.count, limit: limit)
        }
        return [UInt8](data)
    }

    static func tooLarge(path: String, size: Int, limit: Int) -> FileReadError {
        FileReadError(
            path: path,
            reason:
                "the file is \(ConfigLimits.describe(bytes: size)); the limit is \(ConfigLimits.describe(bytes: limit))"
        )
    }
}
