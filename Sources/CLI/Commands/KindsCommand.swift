import Kind
import Runtime
import Text

/// `widgetd kinds`: the widget gallery as text.
enum KindsCommand {
    static func run(registry: KindRegistry, console: Console) -> Int32 {
        console.out(registry.kinds.map(describe).joined(separator: "\n\n"))
        return ExitCode.success
    }

    static func describe(_ kind: any WidgetKind) -> String {
        var lines = [
            "\(kind.name) — \(kind.displayName)",
            "  \(kind.summary)",
        ]
        if let provider = kind.provider { lines.append("  " + provider) }
        lines += [
            "  families: \(kind.families.map(\.rawValue).joined(separator: ", "))"
        ]
        if kind.parameters.isEmpty && !kind.acceptsAnyParameter {
            lines.append("  parameters: none")
        } else if !kind.parameters.isEmpty {
            lines.append("  parameters:")
            for parameter in kind.parameters {
                lines += describe(parameter).map { "    " + $0 }
            }
        }
        if kind.acceptsAnyParameter {
            // The exported form is the kind's (`parameterExport`: exec's `WIDGETD_PARAM_<NAME>`), not the command's.
            let exported = kind.parameterExport.map { " and as \($0.form)" } ?? ""
            lines.append("  other parameters: any name, passed to the command under its own name\(exported)")
        }
        if !kind.widgetKeys.isEmpty {
            lines.append("  widget keys:")
            for key in kind.widgetKeys {
                let required = key.requiredHint == nil ? "" : ", required"
                lines.append("    \(key.name) (\(key.type.name)\(required)): \(key.summary)")
            }
        }
        if kind.intents.isEmpty {
            lines.append("  intents: none")
        } else {
            lines.append("  intents:")
            for intent in kind.intents {
                lines.append("    \(intent.name): \(intent.summary)")
                for parameter in intent.parameters {
                    lines += describe(parameter).map { "      " + $0 }
                }
            }
        }
        // A plugin's names and summaries are its own text, whatever it put there (an ESC, a bidirectional override).
        if kind.provider != nil { lines = lines.map(TerminalText.escaped) }
        return lines.joined(separator: "\n")
    }

    private static func describe(_ parameter: ParameterSpec) -> [String] {
        var head = "\(parameter.name) (\(parameter.type.name))"
        if let value = parameter.defaultValue { head += ", default \(value)" }
        head += " — \(parameter.displayName)"
        if !parameter.summary.isEmpty { head += ": \(parameter.summary)" }
        var lines = [head]
        if case .enumeration(let cases) = parameter.type {
            lines.append("  cases: " + cases.map { "\($0.name) (\($0.displayName))" }.joined(separator: ", "))
        }
        return lines
    }
}
