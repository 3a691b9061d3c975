import Formats
import FoundationEssentials

/// A JSON file the daemon writes and the CLI reads: `daemon.json` (`DaemonState`), a status file
/// (`InstanceStatusRecord`), an instance's record (`InstanceRecord`, in the output directory and kept across
/// restarts). Each type is the one definition of its file: the writer (`StateFiles`, `OutputWriter`) encodes it and
/// every reader (`show`, `list`, `status`, `bar`, `doctor`, a restarted daemon) decodes it through `read(from:)`, so a
/// field is named once, in the type's coding keys.
public protocol RecordFile: Decodable {}

extension RecordFile {
    /// The record in the file at `path`; nil when there is none, or it is not one (a half-made file is never seen:
    /// every writer renames a whole file into place). A caller reading thousands passes one `decoder` for all.
    public static func read(from path: String, decoder: JSONDecoder = JSONDecoder()) -> Self? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? decoder.decode(Self.self, from: data)
    }
}

/// A record file the daemon writes with `JSONEncoder`: keys sorted, so equal records give equal bytes.
public protocol StateRecord: RecordFile, Encodable {
    /// How the file is laid out; sorted keys always.
    static var formatting: JSONEncoder.OutputFormatting { get }
    /// Whether the file ends with a newline.
    static var endsWithNewline: Bool { get }
}

extension StateRecord {
    /// The file's contents. The records hold only strings, numbers and booleans, which always encode.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = Self.formatting
        let bytes = (try? Array(encoder.encode(self))) ?? []
        return Self.endsWithNewline ? bytes + [0x0A] : bytes
    }
}

extension InstanceRecord: RecordFile {}

extension DaemonState: StateRecord {
    public static var formatting: JSONEncoder.OutputFormatting {
        [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    }
    public static var endsWithNewline: Bool { true }
}

extension InstanceStatusRecord: StateRecord {
    public static var formatting: JSONEncoder.OutputFormatting { [.sortedKeys] }
    public static var endsWithNewline: Bool { false }
}
