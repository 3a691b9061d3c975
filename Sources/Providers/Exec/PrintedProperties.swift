import Formats
import FoundationEssentials
import Synchronization

/// What each widget's last run printed, kept as i3blocks 1.5 keeps it: the block's properties take the keys a run
/// prints (an i3bar object's, `full_text`, `short_text` and `color` of its lines), and the next run gets them in its
/// environment. i3blocks-contrib scripts keep their state so (`timer_and_stopwatch` prints `"running": 1` and reads
/// `$running` next time); without it a click's effect was gone a run later.
///
/// Held by the exec kind's value (`ExecKind.printed`), by widget name, so that it lives as long as the kinds the
/// daemon runs with, and two registries (two daemons' worth in one test process) keep theirs apart.
final class PrintedProperties: Sendable {
    private let byInstance = Mutex<[String: [String: String]]>([:])

    /// Keeps the properties `result`'s output gives, for `instance`'s next run; a run that printed none keeps the
    /// last ones (i3blocks updates only what is printed).
    func remember(_ result: CommandResult, format: ExecSettings.Format, for instance: String) {
        let properties = Self.properties(of: result, format: format)
        guard !properties.isEmpty else { return }
        byInstance.withLock { $0[instance, default: [:]].merge(properties) { $1 } }
    }

    /// What `instance`'s runs printed so far, each key as last printed.
    func recalled(for instance: String) -> [String: String] {
        byInstance.withLock { $0[instance] ?? [:] }
    }

    /// The keys an output sets: an i3bar block object's scalar keys (not a timeline's), else the i3blocks lines'.
    static func properties(of result: CommandResult, format: ExecSettings.Format) -> [String: String] {
        let text = String(decoding: result.output, as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace }
        if format != .raw, trimmed.hasPrefix("{") {
            guard let object = (try? JSONValue.parse(Array(trimmed.utf8)))?.object, object["entries"] == nil else {
                return [:]
            }
            var properties: [String: String] = [:]
            for (key, value) in object {
                switch value {
                case .string(let text): properties[key] = text
                case .bool(let flag): properties[key] = flag ? "true" : "false"
                case .number(let number):
                    properties[key] =
                        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
                default: continue
                }
            }
            return properties
        }
        let lines = ExecOutput.outputLines(text)
        var properties: [String: String] = [:]
        for (index, key) in ["full_text", "short_text", "color"].enumerated() where index < lines.count {
            properties[key] = lines[index]
        }
        return properties
    }
}
