import Basics
import FoundationEssentials

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

    public static func path(of name: String, in directory: String) -> String {
        Path.appending("plugin-\(name).json", to: directory)
    }

    /// Written atomically (a temporary file, then a rename), so a reader never sees half of it.
    public func write(in directory: String) throws {
        let data = try JSONEncoder().encode(self)
        try data.write(to: URL(fileURLWithPath: Self.path(of: name, in: directory)), options: .atomic)
    }

    public static func read(_ name: String, in directory: String) -> PluginStatus? {
        guard let data = FileManager.default.contents(atPath: path(of: name, in: directory)) else { return nil }
        return try? JSONDecoder().decode(PluginStatus.self, from: data)
    }
}
