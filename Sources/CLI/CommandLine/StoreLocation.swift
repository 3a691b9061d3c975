import Basics
import Config
import Control
import Glibc
import Runtime
import Store

/// Which store `motivations`, `todos` and `entities` read and edit: the one the running daemon's widgets read, so
/// that the reload they ask for shows the edit; with no daemon running, the one the resolved config names.
///
/// A config that cannot be read (a typo in `--config`, a YAML error mid-edit) is an error, never a fall back on the
/// default store: there the command would say "added" for an edit no widget ever shows.
enum StoreLocation {
    /// Why the store cannot be known, worded for the user.
    struct Unknown: Error, CustomStringConvertible {
        var description: String
    }

    static func resolve(explicit: String?, environment: [String: String]) throws(Unknown) -> String {
        let running = DaemonState.running(in: ControlPaths(environment: environment))
        if let store = running?.store { return store }
        // A daemon from before `daemon.json` named its store: its config, as `show` and `reload` follow it.
        let configPath = running?.config ?? ConfigPath.resolve(explicit: explicit, environment: environment)
        let named = running != nil || explicit != nil || !(environment["WIDGETD_CONFIG"] ?? "").isEmpty
        // No config at all, and none asked for: the CLI alone, on the default store.
        if !named, !exists(configPath) { return SharedStore.defaultPath(environment: environment) }
        let settings: Settings
        do {
            settings = try ConfigLoader.checkedSettings(path: configPath)
        } catch {
            throw Unknown(description: "cannot tell which store to use: \(error.place)")
        }
        guard let path = settings.store else { return SharedStore.defaultPath(environment: environment) }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Path.homeDirectory()
        return DaemonPaths.expandingTilde(path, home: home)
    }

    /// Whether anything is at `path`, a dangling link included (which is then named as the problem).
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
