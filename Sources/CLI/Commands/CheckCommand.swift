import Config
import Glibc
import Kind
import Runtime
import Text

/// `widgetd check`: every mistake in widgets.yaml, or "N widgets OK".
enum CheckCommand {
    static func run(configPath: String, registry: KindRegistry, console: Console) -> Int32 {
        var result = ConfigLoader.load(path: configPath, registry: registry)
        // Stored ids are looked up only in a file that checks; their warnings join the others in file order.
        if let configuration = result.configuration {
            let references = ReferenceCheck.warnings(for: configuration, file: configPath, registry: registry)
            if !references.isEmpty {
                result.diagnostics = (result.diagnostics + references).sorted {
                    ($0.mark?.line ?? 0, $0.mark?.column ?? 0) < ($1.mark?.line ?? 0, $1.mark?.column ?? 0)
                }
            }
        }
        let warnings = result.diagnostics.filter { $0.severity == .warning }.count
        guard let configuration = result.configuration else {
            console.err(result.renderedDiagnostics())
            console.err("\(result.errorSummary) in \(configPath)")
            if access(configPath, F_OK) != 0, errno == ENOENT, let advice = ExampleConfig.advice(for: configPath) {
                console.err(advice)
            }
            return ExitCode.failure
        }
        if warnings > 0 {
            console.err(result.renderedDiagnostics())
        }
        let count = configuration.widgets.count
        let warned = warnings == 0 ? "" : " (\(counted(warnings, "warning")))"
        console.out("\(counted(count, "widget")) OK\(warned)")
        return ExitCode.success
    }
}
