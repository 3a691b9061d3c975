import Config
import Kind
import Runtime

/// `widgetd generate`: man pages and completion scripts for `scripts/install` and `scripts/package-deb`, and the
/// widget names the completions offer.
enum GenerateCommand {
    static func run(
        _ request: GenerateRequest, registry: KindRegistry, environment: [String: String], console: Console
    ) -> Int32 {
        switch request {
        case .manPage(let name):
            printDocument(ManPage.page(name, registry: registry, version: WidgetdMain.version), on: console)
        case .completion(let shell):
            printDocument(CompletionScript.script(for: shell, table: CompletionTable(registry: registry)), on: console)
        case .names(let explicit):
            // The widgets the daemon runs, for a `widgetd click <TAB>` while widgets.yaml is saved with a mistake;
            // with no daemon, the file's names, read even when the rest of it has errors.
            let source = WidgetSource(
                configPath: RunningDaemon.configPath(explicit: explicit, environment: environment),
                environment: environment)
            guard let names = try? source.widgetNames() else { return ExitCode.failure }
            for name in names { console.out(name) }
        }
        return ExitCode.success
    }

    /// Prints a whole document, whose final newline `out` adds back.
    private static func printDocument(_ text: String, on console: Console) {
        console.out(text.hasSuffix("\n") ? String(text.dropLast()) : text)
    }
}
