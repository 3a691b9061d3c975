import Foundation
import Glibc

/// Timeline reloads through a plugin (one long-lived process, a request line and a reply line per reload) against
/// the same reloads through `exec` (a fork and exec of a shell per reload), one after the other in one run: the CPU the
/// daemon and its children spend per 1000 reloads, and the wall time of one.
enum PluginBench {
    struct Result {
        var cpuSeconds: Double
        var wall: Summary
    }

    /// A plugin in plain sh with no fork per request: its reply's text counts up, so every reload rewrites the file.
    static let pluginSource = #"""
        #!/bin/sh
        echo '{"type":"hello","protocol":1,"version":"1","kind":{"name":"bench","families":["systemSmall"]}}'
        n=0
        while IFS= read -r line; do
            id=${line##*\"id\":}
            id=${id%%,*}
            n=$((n + 1))
            echo "{\"id\":$id,\"entries\":[{\"text\":\"n$n\"}],\"policy\":\"never\"}"
        done
        """#

    static func run(plugin: Bool, reloads: Int, root: String, widgetd: String) throws -> Result {
        let scenario = try Scenario(root: root, name: plugin ? "plugin-reloads" : "exec-reloads", widgetd: widgetd)
        let script = scenario.directory + "/bench-plugin"
        try pluginSource.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let widget =
            plugin
            ? "  w:\n    kind: bench\n    output: [plain]\n"
            // `$$` differs on every run, so every reload rewrites the file as the plugin's counter does.
            : "  w:\n    kind: exec\n    command: [/bin/sh, -c, 'echo n$$']\n    output: [plain]\n"
        let text = (plugin ? "plugins:\n  bench: [\(script)]\n" : "") + "widgets:\n" + widget
        try text.write(toFile: scenario.config, atomically: true, encoding: .utf8)
        return try scenario.withSettledDaemon(timelines: 1, settle: 0.3) { daemon, watcher in
            let fifo = open(scenario.fifo, O_WRONLY | O_CLOEXEC)
            guard fifo >= 0 else { throw BenchError("cannot open \(scenario.fifo)") }
            defer { close(fifo) }
            let before = Proc.treeCPU(daemon.pid)
            var times: [Double] = []
            var next = watcher.count
            for _ in 0..<reloads {
                let sent = realtime()
                _ = "reload w\n".withCString { write(fifo, $0, strlen($0)) }
                var renamed: Double?
                let done = waitUntil(timeout: 10, interval: 0.0005) {
                    let events = watcher.snapshot(from: next)
                    next += events.count
                    renamed = events.first { $0.name == "w.plain" }?.time ?? renamed
                    return renamed != nil
                }
                guard done, let renamed else {
                    throw BenchError("a reload was not written within 10 s; see \(scenario.log)")
                }
                times.append(renamed - sent)
            }
            let after = Proc.treeCPU(daemon.pid)
            let cpu = (after.own + after.children) - (before.own + before.children)
            return Result(cpuSeconds: cpu * 1000 / Double(reloads), wall: Summary(times))
        }
    }
}
