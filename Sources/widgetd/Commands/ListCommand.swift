import Foundation
import Scheduler

/// `widgetd list`: each configured instance with what the daemon last showed and when it reloads next.
enum ListCommand {
    static func run(configPath: String, registry: KindRegistry, environment: [String: String], console: Console)
        -> Int32
    {
        let loaded = ConfigLoader.load(path: configPath, registry: registry)
        guard let configuration = loaded.configuration else {
            console.err(loaded.renderedDiagnostics())
            return ExitCode.failure
        }
        let paths = DaemonPaths(environment: environment, settings: configuration.settings)
        // Without a daemon the files hold what it showed when it stopped: not current, so not shown as if it were.
        let running = LockFile.holder(of: paths.control.lock) != nil
        var rows = [["NAME", "KIND", "FAMILY", "TEXT", "POLICY", "NEXT RELOAD", "LAST ERROR"]]
        for instance in configuration.widgets where !running {
            rows.append([instance.name, instance.kind, instance.family.rawValue, "-", "-", "-", "-"])
        }
        for instance in configuration.widgets where running {
            let text = ShowCommand.render(paths.output + "/" + instance.name + ".json", as: .plain) ?? "-"
            let status = InstanceStatusRecord.read(instance: instance.name, in: paths.status)
            rows.append([
                instance.name, instance.kind, instance.family.rawValue, text, status?.policy ?? "-",
                status.map { $0.reloading ? "now (reloading)" : $0.nextReload ?? "on request" } ?? "-",
                status?.lastError ?? "-",
            ])
        }
        let widths = rows[0].indices.map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
            }
            console.out(cells.joined(separator: "  "))
        }
        guard running else {
            console.err("widgetd: the daemon is not running (no process holds \(paths.control.lock))")
            return ExitCode.notRunning
        }
        return ExitCode.success
    }
}
