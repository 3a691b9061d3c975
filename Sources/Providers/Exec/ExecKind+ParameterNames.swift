import Kind

/// The names a script's parameters reach it under, as i3blocks 1.5 exports a block's properties: each as
/// `WIDGETD_PARAM_<NAME>`, and the plain ones under their own names too.
extension ExecKind {
    /// The config checker's hook (`WidgetKind.parameterExport`): a name a script cannot read, or two that reach it as
    /// one `WIDGETD_PARAM_` variable, are errors at the name, not a value passed on mangled or one overwriting another.
    public static let scriptParameters = ParameterExport(
        receiver: "the script", form: "WIDGETD_PARAM_<NAME>",
        nameRule: "write letters, digits, '_', '-' or '.', starting with a letter or '_'",
        acceptsName: isScriptParameterName, exportedName: { "WIDGETD_PARAM_" + environmentName($0) })

    /// A script parameter's name: ASCII letters, digits, `_`, `-` and `.` (i3blocks 1.5 takes `T.WARN`), not starting
    /// with a digit, `-` or `.`, so that `WIDGETD_PARAM_<NAME>` is a name a shell reads and no two names map to one
    /// unseen.
    static func isScriptParameterName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isASCIILetter(first) else { return false }
        return name.utf8.allSatisfy { byte in
            isASCIILetter(byte) || (48...57).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte)
    }

    /// `max-age` → `MAX_AGE`, `T.WARN` → `T_WARN`.
    static func environmentName(_ name: String) -> String {
        String(name.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
