import Formats
import FoundationEssentials
import Kind
import Text
import TimeZones
import Timelines
import YAML

extension ConfigValidator {
    /// Checks one instance under `widgets:`; nil when anything about it is wrong (every problem is reported).
    mutating func widget(named name: String, at nameMark: YAMLMark, from node: YAMLNode) -> WidgetInstance? {
        let errorCount = errors.count
        checkInstanceName(name, at: nameMark)
        guard
            let pairs = mapping(
                node, what: "widget '\(name)'", expecting: "its settings (\(Self.widgetKeys.joined(separator: ", ")))")
        else { return nil }

        // The kind first: which keys are valid depends on it.
        let kindPair = pairs.first { $0.key.scalar?.text == "kind" }
        let kind = kind(of: name, field: kindPair, at: nameMark)
        // Shared, not a new array per widget, when the kind adds no keys of its own (all but exec).
        let keyNames =
            kind.map { $0.widgetKeys.isEmpty ? Self.widgetKeys : Self.widgetKeys + $0.widgetKeys.map(\.name) }
            ?? Self.widgetKeys
        var fields = WidgetFields(capacity: pairs.count)
        for pair in pairs {
            if isFull { break }
            guard let key = keyName(pair.key) else { continue }
            guard keyNames.contains(key) else {
                reportUnknownKey(key, at: pair.key.mark, widget: name, kind: kind, keyNames: keyNames)
                continue
            }
            fields.set(key, pair)
        }

        let family = family(fields["family"], kind: kind)
        var intent = kind.map { shared.defaultConfiguration(of: $0) } ?? IntentValues()
        if let pair = fields["intent"], let kind {
            intent = shared.intent(parameters(pair.value, kind: kind, defaults: intent))
        }
        let cron = fields["schedule"].flatMap { schedule($0.value) }
        let zone = fields["timezone"].flatMap { timeZone($0.value) }
        if fields["output"] != nil { widgetsNamingOutputs.insert(name) }
        let formats = shared.outputs(fields["output"].map { outputs($0.value) } ?? [.plain])
        let bindings = fields["on_click"].map { clickBindings($0.value, kind: kind) } ?? [:]
        let settings = kind.map { kindSettings(fields, kind: $0, at: nameMark, name: name) } ?? WidgetSettings()

        guard errors.count == errorCount, let kind else { return nil }
        return WidgetInstance(
            name: name, kind: kind.name, family: family ?? kind.families[0], familyIsChosen: family != nil,
            intent: intent, schedule: cron,
            timeZone: zone, outputs: formats, onClick: bindings, settings: settings,
            runMode: kind.runMode(for: settings), mark: nameMark)
    }

    /// A key neither the core nor the widget's kind takes; when another kind takes it, says which.
    private mutating func reportUnknownKey(
        _ key: String, at mark: YAMLMark, widget name: String, kind: (any WidgetKind)?, keyNames: [String]
    ) {
        if let owner = registry.kinds.first(where: { $0.widgetKey(named: key) != nil }) {
            // With no known kind, the kind's own error says enough.
            if let kind {
                report("'\(key)' is only for kind '\(owner.name)'; kind '\(kind.name)' does not take it", at: mark)
            }
            return
        }
        report(
            "unknown key '\(ConfigLimits.quoted(key))' in widget '\(name)'"
                + Suggestion.didYouMean(key, in: keyNames, then: "keys are \(keyNames.joined(separator: ", "))"),
            at: mark)
    }

    /// The kind's own widget-level keys, each read as its declared type; a missing required key is an error.
    private mutating func kindSettings(
        _ fields: WidgetFields, kind: any WidgetKind, at nameMark: YAMLMark, name: String
    ) -> WidgetSettings {
        var settings = WidgetSettings()
        for spec in kind.widgetKeys {
            guard let pair = fields[spec.name] else {
                if let hint = spec.requiredHint {
                    report("widget '\(name)' has no '\(spec.name)'; write \(hint)", at: nameMark)
                }
                continue
            }
            settings[spec.name] = widgetKeyValue(pair.value, for: spec)
        }
        return settings
    }

    private mutating func widgetKeyValue(_ node: YAMLNode, for spec: WidgetKeySpec) -> WidgetKeyValue? {
        switch spec.type {
        case .command:
            guard let words = node.sequence else {
                report(
                    "'\(spec.name)' must be a list: [program, arguments…] (no shell unless you write [sh, -c, …])",
                    at: node.mark)
                return nil
            }
            guard !words.isEmpty else {
                report("'\(spec.name)' is empty; write [program, arguments…]", at: node.mark)
                return nil
            }
            let argv = Self.programUnderHome(words.compactMap { text($0, for: spec.name, expected: "a command word") })
            guard argv.count == words.count else { return nil }
            checkProgram(argv[0], at: words[0].mark)
            return .command(argv)
        case .duration(let range, let words):
            if let word = node.scalar?.text, words.contains(word) { return .word(word) }
            return duration(node, for: spec.name, within: range, words: words).map { .duration($0) }
        case .choice(let words):
            guard let text = text(node, for: spec.name, expected: "one of \(words.joined(separator: ", "))") else {
                return nil
            }
            guard words.contains(text) else {
                report(
                    "'\(ConfigLimits.quoted(text))' is not valid for '\(spec.name)'"
                        + Suggestion.didYouMean(text, in: words, then: "expected \(words.joined(separator: " or "))"),
                    at: node.mark)
                return nil
            }
            return .word(text)
        case .int(let range):
            guard let text = text(node, for: spec.name, expected: "an integer") else { return nil }
            guard let value = Int(text), range.contains(value) else {
                report(
                    "'\(ConfigLimits.quoted(text))' is not valid for '\(spec.name)'; expected an integer \(range.lowerBound) to "
                        + "\(range.upperBound)", at: node.mark)
                return nil
            }
            return .int(value)
        }
    }

    /// A duration: `500ms`, `5s`, `2m`, `1h`, or a plain number of seconds.
    private mutating func duration(
        _ node: YAMLNode, for key: String, within range: ClosedRange<TimeInterval>, words: [String]
    ) -> TimeInterval? {
        let alternatives = words.map { " or \($0)" }.joined()
        guard let text = text(node, for: key, expected: "a duration such as 5s or 2m\(alternatives)") else {
            return nil
        }
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("", 1)]
        for unit in units where text.hasSuffix(unit.suffix) {
            // Plain decimal only: `Double` also reads `0x10`, `1e3` and `inf`, which no one means by a duration.
            let number = text.dropLast(unit.suffix.count)
            let digits = number.utf8.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            guard digits > 0, digits + number.utf8.filter({ $0 == UInt8(ascii: ".") }).count == number.utf8.count,
                number.utf8.filter({ $0 == UInt8(ascii: ".") }).count <= 1, let value = Double(number)
            else { continue }
            let seconds = value * unit.seconds
            guard range.contains(seconds) else {
                report(
                    "'\(key)' of \(text) is out of range; expected \(WidgetKeyType.describe(range.lowerBound)) to "
                        + WidgetKeyType.describe(range.upperBound), at: node.mark)
                return nil
            }
            return seconds
        }
        report(
            "'\(ConfigLimits.quoted(text))' is not a duration for '\(key)'; write e.g. 500ms, 5s, 2m or 1h\(alternatives)",
            at: node.mark)
        return nil
    }

    private mutating func checkInstanceName(_ name: String, at mark: YAMLMark) {
        if let problem = InstanceName.problem(name) {
            report("widget name '\(name)' \(problem)", at: mark)
        } else if name == "all" {
            // Allowed (the FIFO tells them apart by quotes), but the CLI's `reload all` means every widget.
            warn(
                "widget name 'all' is also 'widgetd reload all', which reloads every widget: this one can be reloaded "
                    + "alone only through the FIFO (reload \"all\"); another name avoids that", at: mark)
        }
    }

    private mutating func kind(of name: String, field: YAMLPair?, at nameMark: YAMLMark) -> (any WidgetKind)? {
        // A copy: the messages below are made while `self` is being changed (`report`'s autoclosure).
        let registry = self.registry
        var known: String { registry.names.joined(separator: ", ") }
        guard let field else {
            report("widget '\(name)' has no 'kind'; known kinds: \(known)", at: nameMark)
            return nil
        }
        guard let kindName = text(field.value, for: "kind", expected: "a kind name") else { return nil }
        guard let kind = registry.kind(named: kindName) else {
            if let reason = registry.unavailable[kindName] {
                report(
                    "kind '\(ConfigLimits.quoted(kindName))' is a plugin that failed to load: \(reason); 'widgetd plugins' says more",
                    at: field.value.mark, code: .unknownKind(kindName))
                return nil
            }
            // A plugin that failed to load may be the one that provides it, under a kind named otherwise.
            let failedPlugins =
                registry.unavailable.isEmpty
                ? "" : "; a plugin that failed to load may provide it: 'widgetd plugins' says why"
            report(
                "unknown kind '\(ConfigLimits.quoted(kindName))'"
                    + Suggestion.didYouMean(kindName, in: registry.names, then: "known kinds: \(known)")
                    + failedPlugins,
                at: field.value.mark, code: .unknownKind(kindName))
            return nil
        }
        return kind
    }

    private mutating func family(_ field: YAMLPair?, kind: (any WidgetKind)?) -> Family? {
        guard let field, let familyName = text(field.value, for: "family", expected: "a family name") else {
            return nil
        }
        let allNames = Family.allCases.map(\.rawValue)
        guard let family = Family(rawValue: familyName) else {
            report(
                "unknown family '\(ConfigLimits.quoted(familyName))'"
                    + Suggestion.didYouMean(
                        familyName, in: allNames, then: "families: \(allNames.joined(separator: ", "))"),
                at: field.value.mark)
            return nil
        }
        if let kind, !kind.families.contains(family) {
            report(
                "kind '\(kind.name)' does not support family '\(ConfigLimits.quoted(familyName))'; "
                    + "supported: \(kind.families.map(\.rawValue).joined(separator: ", "))", at: field.value.mark)
            return nil
        }
        return family
    }

    /// The `intent:` mapping, each value read as its parameter's type.
    private mutating func parameters(_ node: YAMLNode, kind: any WidgetKind, defaults: IntentValues) -> IntentValues {
        var values = defaults
        var names: [String] { kind.parameters.map(\.name) }
        var listed: String { names.isEmpty ? "it takes none" : "parameters: \(names.joined(separator: ", "))" }
        guard let pairs = mapping(node, what: "'intent'", expecting: "parameter names to values") else {
            return values
        }
        // The names the kind exports its parameters under (declared ones and any others alike), and which parameter
        // took each.
        let export = kind.parameterExport
        var exportedNames: [String: String] = [:]
        /// Takes `key`'s exported name; false, with the error, when an earlier parameter has it.
        func claimExportedName(of key: String, at mark: YAMLMark) -> Bool {
            guard let export else { return true }
            let exported = export.exportedName(key)
            if let earlier = exportedNames[exported] {
                report(
                    "parameters '\(earlier)' and '\(key)' would both reach \(export.receiver) as \(exported)", at: mark)
                return false
            }
            exportedNames[exported] = key
            return true
        }
        for pair in pairs {
            if isFull { break }
            guard let key = keyName(pair.key) else { continue }
            if kind.parameter(named: key) != nil, !claimExportedName(of: key, at: pair.key.mark) {
                continue
            }
            if kind.acceptsAnyParameter, kind.parameter(named: key) == nil {
                // Any name, as a string; one the kind exports must be a name it can export.
                if let export, !export.acceptsName(key) {
                    report(
                        "parameter name '\(ConfigLimits.quoted(key))' cannot reach \(export.receiver): "
                            + "\(export.nameRule) (it is exported as \(export.form))", at: pair.key.mark)
                    continue
                }
                guard claimExportedName(of: key, at: pair.key.mark) else { continue }
                let spec = ParameterSpec(key, displayName: key, type: .string)
                do {
                    values[key] = try ParameterDecoder.decode(pair.value, for: spec)
                } catch {
                    report(error, in: pair.value)
                }
                continue
            }
            guard let spec = kind.parameter(named: key) else {
                report(
                    "unknown parameter '\(ConfigLimits.quoted(key))' for kind '\(kind.name)'"
                        + Suggestion.didYouMean(key, in: names, then: listed), at: pair.key.mark)
                continue
            }
            do {
                values[key] = try ParameterDecoder.decode(pair.value, for: spec)
            } catch {
                report(error, in: pair.value)
            }
        }
        return values
    }

    private mutating func schedule(_ node: YAMLNode) -> CronExpression? {
        guard let text = text(node, for: "schedule", expected: "a cron expression") else { return nil }
        do {
            let cron = try CronExpression(parsing: text)
            if let reason = cron.neverFiresReason {
                report(
                    "schedule '\(ConfigLimits.quoted(text))' never fires: \(reason.text)",
                    at: mark(ofOffset: reason.offset, in: node))
                return nil
            }
            return cron
        } catch {
            report(
                "bad cron expression '\(ConfigLimits.quoted(text))': \(error)",
                at: mark(ofOffset: error.offset, in: node))
            return nil
        }
    }

    /// A zone from the system's zoneinfo; a misspelt name gets a hint from tzdata's list of names.
    private mutating func timeZone(_ node: YAMLNode) -> Zone? {
        guard let identifier = text(node, for: "timezone", expected: "a time zone such as Europe/Berlin") else {
            return nil
        }
        do {
            return try Zone.load(identifier: identifier)
        } catch .unreadable(_, let reason) {
            report("time zone '\(ConfigLimits.quoted(identifier))' cannot be read: \(reason)", at: node.mark)
        } catch {
            let hint = Suggestion.didYouMean(identifier, in: Zone.knownIdentifiers())
            report("unknown time zone '\(ConfigLimits.quoted(identifier))'\(hint)", at: node.mark)
        }
        return nil
    }

    /// `output:` is one format or a list of them.
    private mutating func outputs(_ node: YAMLNode) -> [OutputFormat] {
        let items = node.sequence ?? [node]
        var formats: [OutputFormat] = []
        let names = OutputFormat.allCases.map(\.rawValue)
        for item in items {
            if isFull { break }
            guard let name = text(item, for: "output", expected: "a format name") else { continue }
            guard let format = OutputFormat(rawValue: name) else {
                report(
                    "unknown output format '\(name)'"
                        + Suggestion.didYouMean(name, in: names, then: "formats: \(names.joined(separator: ", "))"),
                    at: item.mark)
                continue
            }
            if formats.contains(format) {
                report("output format '\(name)' is listed twice", at: item.mark)
                continue
            }
            formats.append(format)
        }
        return formats
    }

    /// `on_click:` maps a button to an intent name, or to a command as an argv list.
    private mutating func clickBindings(_ node: YAMLNode, kind: (any WidgetKind)?) -> [MouseButton: ClickAction] {
        var bindings: [MouseButton: ClickAction] = [:]
        let buttons = MouseButton.allCases.map(\.rawValue)
        guard let pairs = mapping(node, what: "'on_click'", expecting: "buttons (\(buttons.joined(separator: ", ")))")
        else { return bindings }
        for pair in pairs {
            if isFull { break }
            guard let key = keyName(pair.key) else { continue }
            guard let button = MouseButton(rawValue: key) else {
                report(
                    "unknown button '\(ConfigLimits.quoted(key))'"
                        + Suggestion.didYouMean(key, in: buttons, then: "buttons: \(buttons.joined(separator: ", "))"),
                    at: pair.key.mark)
                continue
            }
            if let argv = pair.value.sequence {
                let words = Self.programUnderHome(
                    argv.compactMap { text($0, for: "on_click", expected: "a command word") })
                if argv.isEmpty {
                    report("the command for '\(key)' is empty; write [program, arguments…]", at: pair.value.mark)
                } else if words.count == argv.count {
                    // Checked as `command:` is: an empty or missing program is found now, not at the click.
                    checkProgram(words[0], at: argv[0].mark)
                    bindings[button] = .command(words)
                }
                continue
            }
            guard let intentName = text(pair.value, for: key, expected: "an intent name or a command list") else {
                continue
            }
            if let kind, !kind.acceptsAnyIntent, !kind.intents.contains(where: { $0.name == intentName }) {
                let names = kind.intents.map(\.name)
                let known = names.isEmpty ? "it has none" : "intents: \(names.joined(separator: ", "))"
                report(
                    "kind '\(kind.name)' has no intent '\(intentName)'"
                        + Suggestion.didYouMean(intentName, in: names, then: known), at: pair.value.mark)
                continue
            }
            bindings[button] = .intent(intentName)
        }
        return bindings
    }
}
