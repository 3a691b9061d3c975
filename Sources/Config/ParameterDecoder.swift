import Basics
import FoundationEssentials
import Kind
import Text
import Timelines
import YAML

/// Reads a YAML node as the type a parameter declares. Types come from the schema, never from the scalar:
/// `yes` is a string unless a bool is asked for.
public enum ParameterDecoder {
    /// The typed value of `node` for `spec`, or what is wrong with it and where.
    public static func decode(_ node: YAMLNode, for spec: ParameterSpec) throws(LocatedError) -> ParameterValue {
        switch spec.type {
        case .string:
            return .string(try scalarText(node, expected: "a string", spec: spec))
        case .bool:
            let text = try scalarText(node, expected: "a bool (true or false)", spec: spec)
            guard let value = bool(from: text) else {
                throw LocatedError("'\(text)' is not a bool for '\(spec.name)'; write true or false", at: node.mark)
            }
            return .bool(value)
        case .int(let range):
            let text = try scalarText(node, expected: "an integer", spec: spec)
            let digits = text.replacingAll("_", with: "")
            guard let value = Int(digits), !text.hasPrefix("_") else {
                // All digits, and still no `Int`: too many of them, which is a range problem, not a typo.
                let unsigned = digits.hasPrefix("-") || digits.hasPrefix("+") ? digits.dropFirst() : Substring(digits)
                if !text.hasPrefix("_"), !unsigned.isEmpty,
                    unsigned.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
                {
                    let expected =
                        range.map { "expected \($0.lowerBound) to \($0.upperBound)" } ?? "it does not fit in 64 bits"
                    throw LocatedError("\(text) is out of range for '\(spec.name)'; \(expected)", at: node.mark)
                }
                throw LocatedError("'\(text)' is not an integer for '\(spec.name)'", at: node.mark)
            }
            if let range, !range.contains(value) {
                throw LocatedError(
                    "\(value) is out of range for '\(spec.name)'; expected \(range.lowerBound) to \(range.upperBound)",
                    at: node.mark)
            }
            return .int(value)
        case .enumeration(let cases):
            let text = try scalarText(node, expected: "one of its cases", spec: spec)
            if cases.contains(where: { $0.name == text }) { return .enumCase(text) }
            let list = cases.map { "\($0.name) (\($0.displayName))" }.joined(separator: ", ")
            let hint = Suggestion.didYouMean(text, in: cases.map(\.name), then: "cases: \(list)")
            throw LocatedError(
                "'\(text)' is not a \(spec.displayName.lowercased()) for '\(spec.name)'\(hint)",
                at: node.mark)
        case .entity(let type):
            return .entity(try entityReference(node, type: type, spec: spec))
        case .format(let conversions):
            let text = try scalarText(node, expected: "a format", spec: spec)
            if let problem = formatProblem(in: text, conversions: conversions, spec: spec) {
                throw LocatedError(problem.message, at: node.mark, valueOffset: problem.offset)
            }
            return .string(text)
        case .color:
            let text = try scalarText(node, expected: "a colour", spec: spec)
            guard let color = Color(hex: text) else {
                throw LocatedError(
                    "'\(text)' is not a colour for '\(spec.name)'; expected #RGB, #RRGGBB or #RRGGBBAA", at: node.mark)
            }
            return .color(color)
        case .duration:
            let text = try scalarText(node, expected: "a duration such as 5s or 25m", spec: spec)
            guard let seconds = seconds(from: text), seconds >= 0 else {
                throw LocatedError(
                    "'\(text)' is not a duration for '\(spec.name)'; write e.g. 500ms, 5s, 25m or 1h", at: node.mark)
            }
            return .duration(seconds)
        }
    }

    /// `500ms`, `5s`, `2m`, `1h`, or a plain number of seconds; nil for anything else.
    public static func seconds(from text: String) -> TimeInterval? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("", 1)]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let value = Double(text.dropLast(unit.suffix.count)), value.isFinite else { continue }
            return value * unit.seconds
        }
        return nil
    }

    /// YAML 1.1's boolean words, read only where the schema asks for a bool.
    public static func bool(from text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on", "y": true
        case "false", "no", "off", "n": false
        default: nil
        }
    }

    /// The shortest id prefix an entity reference may use: shorter ones match too much to be meant.
    public static let minimumEntityPrefix = 4

    private static func entityReference(
        _ node: YAMLNode, type: String, spec: ParameterSpec
    ) throws(LocatedError) -> EntityReference {
        if let pairs = node.mapping {
            guard let first = pairs.first, pairs.count == 1, first.key.scalar?.text == "match" else {
                let at = pairs.first { $0.key.scalar?.text != "match" }?.key.mark ?? node.mark
                throw LocatedError(
                    "'\(spec.name)' takes an id, an id prefix, or {match: TEXT} with only the key 'match'", at: at)
            }
            guard let text = first.value.scalar, !text.isNull, !text.text.isEmpty else {
                throw LocatedError("'match' needs text to search the \(type) records for", at: first.value.mark)
            }
            return .match(text.text)
        }
        let id = try scalarText(node, expected: "an id or {match: TEXT}", spec: spec)
        guard id.count >= minimumEntityPrefix else {
            throw LocatedError(
                "\(type) id '\(id)' is too short; give at least \(minimumEntityPrefix) characters of the id",
                at: node.mark)
        }
        return .id(id)
    }

    /// The first `%` in `text` not followed by one of `conversions`, with its character offset.
    static func formatProblem(
        in text: String, conversions: String, spec: ParameterSpec
    ) -> (message: String, offset: Int)? {
        var offset = 0
        var percent: Int?
        for character in text {
            defer { offset += 1 }
            guard let start = percent else {
                if character == "%" { percent = offset }
                continue
            }
            percent = nil
            guard conversions.contains(character) else {
                let known = conversions.sorted().map { "%\($0)" }.joined(separator: " ")
                return ("unknown conversion '%\(character)' in '\(spec.name)'; known: \(known)", start)
            }
        }
        if let start = percent {
            return ("'\(spec.name)' ends in a lone '%'; write '%%' for a percent sign", start)
        }
        return nil
    }

    private static func scalarText(
        _ node: YAMLNode, expected: String, spec: ParameterSpec
    ) throws(LocatedError) -> String {
        guard let scalar = node.scalar else {
            throw LocatedError("'\(spec.name)' expects \(expected), found \(node.kindDescription)", at: node.mark)
        }
        guard !scalar.isNull else {
            throw LocatedError("'\(spec.name)' expects \(expected), found nothing", at: node.mark)
        }
        return scalar.text
    }
}

extension ParameterDecoder {
    /// Reads a value typed on the command line (`--set key=value`) exactly as the config would read it.
    /// Text starting with `{` or `[` is YAML flow syntax, so `--set 'motivation={match: limits}'` works.
    public static func decode(text: String, for spec: ParameterSpec) throws(LocatedError) -> ParameterValue {
        if text.hasPrefix("{") || text.hasPrefix("[") {
            let document: YAMLDocument
            do {
                document = try YAMLLoader.load(text)
            } catch {
                throw LocatedError(error.message, at: error.mark)
            }
            if let root = document.root {
                return try decode(root, for: spec)
            }
        }
        let scalar = YAMLScalar(text: text, style: .plain, isNull: text.isEmpty)
        return try decode(YAMLNode(content: .scalar(scalar), mark: .start, tag: nil), for: spec)
    }
}
