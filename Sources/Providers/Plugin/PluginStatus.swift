import Basics
import FoundationEssentials
import Glibc
import Output
import System

/// A plugin's state as the daemon last saw it: a small JSON file per plugin in the daemon's status directory, which
/// `widgetd plugins` reads.
public struct PluginStatus: Sendable, Hashable, Codable {
    public var name: String
    public var kind: String
    /// `running`, `crashed` (waiting to start again), `idle` (not started yet) or `stopped`.
    public var state: String
    public var pid: Int?
    public var version: String?
    public var lastError: String?
    public var restarts: Int
    /// The last lines of standard error of its last run that ended (absent in files of older daemons).
    public var standardError: [String]?
    /// How the daemon starts it: `widgetd plugins` tells a plugin renamed or removed since from one still there.
    public var argv: [String]?

    /// `its standard error before that: a | b | c` for the lines before the last of `lines` (the last one is in the
    /// failure's own message), or nil when there are none.
    public static func earlierStandardError(_ lines: [String]) -> String? {
        guard lines.count > 1 else { return nil }
        return "wrote on its standard error before that: " + lines.dropLast().joined(separator: " | ")
    }

    public static func path(of name: String, in directory: String) -> String {
        Path.appending(fileName(of: name), to: directory)
    }

    static func fileName(of name: String) -> String { "plugin-\(name).json" }

    /// Written atomically (a temporary file, then a rename), so a reader never sees half of it.
    /// Writes the file by descriptor (`AtomicFile`), in `directory` opened without following a link (`O_NOFOLLOW`)
    /// and checked to be the user's: the daemon never writes through a link it did not make under its runtime
    /// directory.
    public func write(in directory: String) throws {
        let data = try JSONEncoder().encode(self)
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError(call: "open", subject: directory, errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_uid == getuid() else {
            throw SystemError(call: "open", subject: directory, errno: EPERM)
        }
        try AtomicFile.write(Array(data), named: Self.fileName(of: name), in: descriptor, at: directory + "/")
    }

    public static func read(_ name: String, in directory: String) -> PluginStatus? {
        guard let data = FileManager.default.contents(atPath: path(of: name, in: directory)) else { return nil }
        return try? JSONDecoder().decode(PluginStatus.self, from: data)
    }
}
