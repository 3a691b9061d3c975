import Foundation
import Scheduler

/// `widgetd show NAME`: the current entry in any format; with `--follow`, once per change.
enum ShowCommand {
    static func run(
        instance: String, formatName: String?, follow: Bool, configPath: String, registry: KindRegistry,
        environment: [String: String], console: Console
    ) -> Int32 {
        let format: OutputFormat
        if let formatName {
            guard let named = OutputFormat(rawValue: formatName) else {
                let names = OutputFormat.allCases.map(\.rawValue)
                let list = "formats: \(names.joined(separator: ", "))"
                console.report(
                    UsageError(
                        "Unknown format '\(formatName)'\(Suggestion.didYouMean(formatName, in: names, then: list)).",
                        command: .show))
                return ExitCode.usage
            }
            format = named
        } else {
            format = .plain
        }
        let settings = ConfigLoader.load(path: configPath, registry: registry).configuration?.settings ?? Settings()
        let directory = DaemonPaths(environment: environment, settings: settings).output
        let path = directory + "/" + instance + ".json"
        guard follow else {
            guard let rendered = render(path, as: format) else {
                console.err("widgetd: error: no entry for '\(instance)' in \(directory) (is the daemon running?)")
                return ExitCode.failure
            }
            console.out(rendered)
            return ExitCode.success
        }
        return followEntry(path, in: directory, as: format, console: console)
    }

    /// The entry at `path` rendered as `format`, without its final newline; nil when there is none.
    static func render(_ path: String, as format: OutputFormat) -> String? {
        guard let data = FileManager.default.contents(atPath: path),
            let entry = try? JSONDecoder().decode(CanonicalEntry.self, from: data)
        else { return nil }
        var text = entry.rendered(as: format)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Prints the entry, then again each time the daemon replaces the file (inotify: no polling).
    private static func followEntry(_ path: String, in directory: String, as format: OutputFormat, console: Console)
        -> Int32
    {
        let name = (path as NSString).lastPathComponent
        let watcher: Inotify
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            watcher = try Inotify()
            _ = try watcher.watch(directory: directory, mask: [.movedTo, .closeWrite, .create])
        } catch {
            console.err("widgetd: error: cannot watch \(directory): \(error)")
            return ExitCode.failure
        }
        var last: String?
        while true {
            if let rendered = render(path, as: format), rendered != last {
                console.out(rendered)
                last = rendered
            }
            do {
                _ = try Poller.waitUntilReadable(watcher.fileDescriptor, timeout: nil)
            } catch {
                console.err("widgetd: error: \(error)")
                return ExitCode.failure
            }
            // Only this instance's file matters; the rest of the directory changes too.
            guard watcher.readEvents().contains(where: { $0.name == name || $0.mask.contains(.queueOverflow) })
            else { continue }
        }
    }
}
