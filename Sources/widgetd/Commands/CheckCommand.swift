import Scheduler

/// `widgetd check`: every mistake in widgets.yaml, or "N widgets OK".
enum CheckCommand {
    static func run(configPath: String, registry: KindRegistry, console: Console) -> Int32 {
        let result = ConfigLoader.load(path: configPath, registry: registry)
        guard let configuration = result.configuration else {
            console.err(result.renderedDiagnostics())
            let count = result.diagnostics.count
            console.err("\(count) error\(count == 1 ? "" : "s") in \(configPath)")
            return ExitCode.failure
        }
        let count = configuration.widgets.count
        console.out("\(count) widget\(count == 1 ? "" : "s") OK")
        return ExitCode.success
    }
}
