import Foundation
import Glibc

/// What the runtime-link tests do to a directory: put a link where it was, to one of the user's own elsewhere.
public enum LinkedDirectories {
    /// A directory elsewhere, the user's own, that the link points to.
    public static func elsewhere(in directory: TemporaryDirectory) throws -> String {
        let path = directory.url.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    public static func contents(of path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Replaces the directory at `path` by a link to `target`.
    public static func replaceByLink(_ path: String, to target: String) throws {
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    /// Whether `path` is a directory itself, not a link to one.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
