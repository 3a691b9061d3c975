/// How a kind hands its instances' parameters on to a program under names of the program's (exec: to a script's
/// environment, as `WIDGETD_PARAM_<NAME>`), declared on the kind (`WidgetKind.parameterExport`) so that the config
/// checker refuses a name that cannot get there, or two that would arrive as one, without knowing which kind it checks.
public struct ParameterExport: Sendable {
    /// What receives the parameters, as messages name it: "the script".
    public var receiver: String
    /// What a name becomes, as messages write it: "WIDGETD_PARAM_<NAME>".
    public var form: String
    /// The rule for a name the kind does not declare, as messages say it: "write letters, digits, …".
    public var nameRule: String
    /// Whether a parameter the kind does not declare may have this name (`acceptsAnyParameter`).
    public var acceptsName: @Sendable (String) -> Bool
    /// The name a parameter reaches the receiver under: `max-age` → `WIDGETD_PARAM_MAX_AGE`.
    public var exportedName: @Sendable (String) -> String

    public init(
        receiver: String, form: String, nameRule: String, acceptsName: @escaping @Sendable (String) -> Bool,
        exportedName: @escaping @Sendable (String) -> String
    ) {
        self.receiver = receiver
        self.form = form
        self.nameRule = nameRule
        self.acceptsName = acceptsName
        self.exportedName = exportedName
    }
}
