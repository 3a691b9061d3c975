/// The outcome of a request that carried a token, as the daemon writes it to `<runtime dir>/acks/TOKEN`: done, with
/// the widgets whose entries it wrote (so a `--wait` can print what they show now), or failed, with why.
///
/// The file is `done` and then a widget name a line, or the reason for a failure as it stands. An empty file is
/// done with no widget named (`ControlPaths.acknowledge`, and daemons before the outcome had widgets). Names never
/// hold a line break (`InstanceName`), and no reason is the word `done` alone.
public enum Acknowledgement: Sendable, Equatable {
    case done(widgets: [String])
    case failed(String)

    static let doneLine = "done"

    /// The file's contents.
    public var bytes: [UInt8] {
        switch self {
        case .done(let widgets):
            var text = Self.doneLine + "\n"
            for widget in widgets { text += widget + "\n" }
            return Array(text.utf8)
        case .failed(let reason):
            return Array((reason + "\n").utf8)
        }
    }

    /// Reads a file's contents, written whole (by rename).
    public init(_ bytes: [UInt8]) {
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else {
            self = .done(widgets: [])
            return
        }
        guard first == Self.doneLine else {
            self = .failed(lines.joined(separator: "\n"))
            return
        }
        self = .done(widgets: lines.dropFirst().map(String.init))
    }
}
