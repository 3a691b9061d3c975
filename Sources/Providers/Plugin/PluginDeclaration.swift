import Config
import Formats
import FoundationEssentials
import Kind
import Timelines

/// What a plugin's `hello` declares: the kind it serves (docs/PLUGINS.md). Read once from the plugin, then kept in the
/// declaration cache so `check`, `kinds` and `preview` need no running plugin.
public struct PluginDeclaration: Sendable, Hashable {
    /// The protocol version this daemon speaks; a plugin saying another major version is refused.
    public static let protocolVersion = 1

    public var protocolVersion: Int
    /// The plugin's own version, for `widgetd plugins`.
    public var version: String
    public var name: String
    public var displayName: String
    public var summary: String
    public var families: [Family]
    public var parameters: [ParameterSpec]
    public var intents: [IntentSpec]
    /// The intent a click runs per button when `on_click:` binds none.
    public var buttons: [MouseButton: String]
    /// Text painted before the first timeline.
    public var placeholder: String

    /// Reads a `hello` message; the error says what is wrong, for `widgetd plugins` and the log.
    public static func parse(_ object: [String: JSONValue]) throws(PluginProtocolError) -> PluginDeclaration {
        guard object["type"]?.string == "hello" else {
            throw PluginProtocolError("the first message must be a hello")
        }
        guard let version = object["protocol"]?.int else {
            throw PluginProtocolError("hello needs \"protocol\": \(protocolVersion)")
        }
        guard version == protocolVersion else {
            throw PluginProtocolError("speaks protocol \(version); this widgetd speaks \(protocolVersion)")
        }
        guard let kind = object["kind"]?.object else {
            throw PluginProtocolError("hello needs a \"kind\" object")
        }
        guard let name = kind["name"]?.string, KindName.isValid(name) else {
            throw PluginProtocolError("the kind needs a \"name\" of lowercase letters, digits and '-'")
        }
        var families: [Family] = []
        for text in kind["families"]?.strings ?? [] {
            guard let family = Family(rawValue: text) else { throw PluginProtocolError("unknown family '\(text)'") }
            families.append(family)
        }
        if families.isEmpty { families = [.systemSmall] }
        let parameters = try unique(try (kind["parameters"]?.objects ?? []).map(parameter), "parameter")
        var intents: [IntentSpec] = []
        for item in kind["intents"]?.objects ?? [] {
            guard let intentName = item["name"]?.string, KindName.isValid(intentName) else {
                throw PluginProtocolError("an intent needs a \"name\" of lowercase letters, digits and '-'")
            }
            intents.append(
                IntentSpec(
                    intentName, summary: item["summary"]?.string ?? "",
                    parameters: try unique(
                        try (item["parameters"]?.objects ?? []).map(parameter), "parameter of intent '\(intentName)'")))
        }
        if let twice = firstRepeated(intents.map(\.name)) {
            throw PluginProtocolError("declares intent '\(twice)' twice")
        }
        var buttons: [MouseButton: String] = [:]
        for (key, value) in Self.strings(kind["buttons"]) ?? [:] {
            guard let button = MouseButton(rawValue: key) else { throw PluginProtocolError("unknown button '\(key)'") }
            guard intents.contains(where: { $0.name == value }) else {
                throw PluginProtocolError("button '\(key)' names no declared intent '\(value)'")
            }
            buttons[button] = value
        }
        return PluginDeclaration(
            protocolVersion: version, version: object["version"]?.string ?? "", name: name,
            displayName: kind["display_name"]?.string ?? name, summary: kind["summary"]?.string ?? "",
            families: families, parameters: parameters, intents: intents, buttons: buttons,
            placeholder: kind["placeholder"]?.string ?? "…")
    }

    /// `parameters`, refused when a name comes twice: the config could not tell which one a value is for.
    private static func unique(_ parameters: [ParameterSpec], _ what: String) throws(PluginProtocolError)
        -> [ParameterSpec]
    {
        if let twice = firstRepeated(parameters.map(\.name)) {
            throw PluginProtocolError("declares \(what) '\(twice)' twice")
        }
        return parameters
    }

    private static func firstRepeated(_ names: [String]) -> String? {
        var seen = Set<String>()
        return names.first { !seen.insert($0).inserted }
    }

    /// One declared parameter: `{"name", "type", "default", "display_name", "summary"}` plus `min`/`max` for int and
    /// `cases` for enum.
    private static func parameter(_ object: [String: JSONValue]) throws(PluginProtocolError) -> ParameterSpec {
        guard let name = object["name"]?.string, !name.isEmpty else {
            throw PluginProtocolError("a parameter needs a \"name\"")
        }
        let type: ParameterType
        switch object["type"]?.string {
        case "string": type = .string
        case "bool": type = .bool
        case "duration": type = .duration
        case "int":
            let low = object["min"]?.int
            let high = object["max"]?.int
            if let low, let high, low > high { throw PluginProtocolError("parameter '\(name)': min is above max") }
            type = .int(low == nil && high == nil ? nil : (low ?? Int.min)...(high ?? Int.max))
        case "enum":
            var cases: [EnumCase] = []
            for item in object["cases"]?.array ?? [] {
                if let text = item.string {
                    cases.append(EnumCase(text, displayName: text))
                } else if let pair = item.object, let caseName = pair["name"]?.string {
                    cases.append(EnumCase(caseName, displayName: pair["display_name"]?.string ?? caseName))
                }
            }
            if cases.isEmpty { throw PluginProtocolError("enum parameter '\(name)' declares no cases") }
            type = .enumeration(cases)
        case let other:
            throw PluginProtocolError(
                "parameter '\(name)' has type '\(other ?? "none")'; types are string, bool, int, enum, duration")
        }
        var spec = ParameterSpec(
            name, displayName: object["display_name"]?.string ?? name, type: type,
            summary: object["summary"]?.string ?? "")
        if let value = object["default"], !value.isNull {
            // The default is read exactly as a value in widgets.yaml would be.
            let text = type == .bool ? String(value.bool ?? false) : "\(value)"
            do {
                spec.defaultValue = try ParameterDecoder.decode(text: text, for: spec)
            } catch {
                throw PluginProtocolError("parameter '\(name)': default \(error.message)")
            }
        }
        return spec
    }

    /// An object whose members are all strings (`buttons`); nil for anything else.
    private static func strings(_ value: JSONValue?) -> [String: String]? {
        guard let members = value?.object else { return nil }
        let texts = members.compactMapValues(\.string)
        return texts.count == members.count ? texts : nil
    }
}

/// Something a plugin sent that the protocol does not allow.
public struct PluginProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Kind and intent names: what a user types in widgets.yaml and on the command line.
enum KindName {
    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
