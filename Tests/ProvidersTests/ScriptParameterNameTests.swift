import Kind
import Testing

@testable import Providers

/// The exec kind's parameter export (`ExecKind.scriptParameters`): which names a script can be given, and the
/// `WIDGETD_PARAM_` name each reaches it under.
@Suite("exec: script parameter names")
struct ScriptParameterNameTests {
    @Test func execExportsItsParametersAsAScriptsEnvironment() {
        #expect(ExecKind().parameterExport?.receiver == "the script")
        #expect(ExecKind().parameterExport?.form == "WIDGETD_PARAM_<NAME>")
    }

    @Test(arguments: ["T_WARN", "max-age", "_x9", "T.WARN", "a", "label", "Z9-_."])
    func aNameAShellCanReadIsTaken(_ name: String) {
        #expect(ExecKind.scriptParameters.acceptsName(name))
    }

    @Test(arguments: ["", "a b", "a=b", "é", "9lives", "-x", ".x", "a/b", "a\nb"])
    func anyOtherNameIsRefused(_ name: String) {
        #expect(!ExecKind.scriptParameters.acceptsName(name))
    }

    @Test(arguments: [
        ("max-age", "WIDGETD_PARAM_MAX_AGE"), ("T.WARN", "WIDGETD_PARAM_T_WARN"), ("label", "WIDGETD_PARAM_LABEL"),
        ("_x9", "WIDGETD_PARAM__X9"), ("a_b", "WIDGETD_PARAM_A_B"), ("A-B", "WIDGETD_PARAM_A_B"),
    ])
    func theExportedNameIsUpperCaseWithUnderscores(_ name: String, exported: String) {
        #expect(ExecKind.scriptParameters.exportedName(name) == exported)
    }
}
