import Config
import Control
import Diagnostics
import Kind
import Providers
import Runtime
import YAML

/// Where a command finds the widgets it names: the config the running daemon runs (its copy, `RunningConfig`), else,
/// with no daemon running, the config file.
///
/// `click`, `reload`, `intent`, `show`, `bar`, `list` and `generate names` (the shell completions) are about the
/// widgets the daemon runs, and it keeps running its last good config while widgets.yaml is saved with a mistake;
/// checking their names, kinds and bars against the file would stop every click from a bar, and every completion,
/// until the file is fixed, for widgets the daemon runs all the while.
struct WidgetSource {
    /// The config file, as messages name it: the daemon's when one runs.
    let path: String
    /// The text of the config the daemon runs; nil when no daemon runs (or it has not written it): the file is read.
    let running: [UInt8]?

    init(configPath: String, environment: [String: String]) {
        let control = ControlPaths(environment: environment)
        if let daemon = DaemonState.running(in: control),
            let copy = try? FileReading.contents(
                of: RunningConfig.path(in: control), atMost: ConfigLimits.maxFileBytes, pipeWait: 0)
        {
            path = daemon.config
            running = copy
        } else {
            path = configPath
            running = nil
        }
    }

    /// The config checked with `registry`: the daemon's when one runs. Nil configuration when it does not check here
    /// (a plugin kind this CLI does not see, or, with no daemon, a file with errors).
    func load(registry: KindRegistry) -> ConfigLoadResult {
        guard let running else { return ConfigLoader.load(path: path, registry: registry) }
        return ConfigLoader.load(bytes: running, file: path, registry: registry)
    }

    /// The widget names, read even when the rest does not check.
    /// - Throws: when no daemon runs and the file cannot be read or is not YAML.
    func widgetNames() throws(Diagnostic) -> [String] {
        guard let running else { return try ConfigLoader.widgetNames(path: path) }
        return try ConfigLoader.widgetNames(bytes: running, file: path)
    }

    /// Whether the file itself declares `name` though the daemon does not run it yet: saved a moment ago, the daemon
    /// may be taking the edit in, and decides (and answers a `--wait`) itself.
    func fileDeclares(_ name: String) -> Bool {
        running != nil && (try? ConfigLoader.widgetNames(path: path))?.contains(name) == true
    }

    /// The plugins named under `plugins:` of the config the daemon runs (or the file's): the kinds a command needs to
    /// check the widgets it resolves here, which a file saved with a YAML mistake no longer names.
    var plugins: [PluginCommand] {
        guard let running else { return ConfigLoader.plugins(path: path) }
        return ConfigLoader.plugins(bytes: running)
    }

    /// The settings for the paths when no daemon runs; a running daemon's paths come from `daemon.json`.
    var settings: Settings {
        running == nil ? ConfigLoader.settings(path: path) : Settings()
    }
}
