import Foundation
import Glibc

/// Resident memory of an idle daemon: every timeline in, nothing due for a moment. `VmRSS` is what the daemon holds
/// then; its peak (`VmHWM`) and anonymous part (`RssAnon`) are printed beside it.
struct IdleMemory {
    var residentKilobytes: Int
    var peakKilobytes: Int
    var anonymousKilobytes: Int
}

enum IdleMemoryBench {
    /// The daemon on `config` (a file to copy; nil: a config with no widgets).
    static func daemon(config: String?, settle: Double, root: String, name: String, widgetd: String) throws
        -> IdleMemory
    {
        let scenario = try Scenario(root: root, name: name, widgetd: widgetd)
        let widgets: Int
        if let config {
            let text = try String(contentsOfFile: config, encoding: .utf8)
            try text.write(toFile: scenario.config, atomically: true, encoding: .utf8)
            widgets = widgetCount(text)
        } else {
            try "widgets: {}\n".write(toFile: scenario.config, atomically: true, encoding: .utf8)
            widgets = 0
        }
        let daemon = try scenario.startDaemon()
        defer { daemon.stop() }
        if widgets > 0 {
            try scenario.waitForTimelines(widgets)
        } else {
            guard waitUntil(timeout: 30, { FileManager.default.fileExists(atPath: scenario.fifo) }) else {
                throw BenchError("the daemon made no FIFO: \(scenario.logTail)")
            }
        }
        sleepSeconds(settle)
        guard daemon.isRunning else { throw BenchError("the daemon stopped: \(scenario.logTail)") }
        return IdleMemory(
            residentKilobytes: Proc.statusKilobytes(daemon.pid, "VmRSS") ?? 0,
            peakKilobytes: Proc.statusKilobytes(daemon.pid, "VmHWM") ?? 0,
            anonymousKilobytes: Proc.statusKilobytes(daemon.pid, "RssAnon") ?? 0)
    }

    /// i3blocks with the example's seven widgets as blocks (LoadBench's), once it has printed its first line.
    static func i3blocks(settle: Double, root: String, name: String) throws -> IdleMemory {
        let directory = root + "/" + name
        try makeDirectory(directory)
        let config = directory + "/i3blocks.conf"
        try (0..<7).map(LoadBench.block).joined().write(toFile: config, atomically: true, encoding: .utf8)
        let (i3blocks, output) = try startI3blocks(config: config, in: directory, blocks: 7)
        defer { i3blocks.stop() }
        try waitForFirstLine(of: output, logIn: directory)
        sleepSeconds(settle)
        return IdleMemory(
            residentKilobytes: Proc.statusKilobytes(i3blocks.pid, "VmRSS") ?? 0,
            peakKilobytes: Proc.statusKilobytes(i3blocks.pid, "VmHWM") ?? 0,
            anonymousKilobytes: Proc.statusKilobytes(i3blocks.pid, "RssAnon") ?? 0)
    }

    /// The widgets a config defines: the keys indented by two spaces under the top-level `widgets:`.
    static func widgetCount(_ text: String) -> Int {
        var inside = false
        var count = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.first.map({ !$0.isWhitespace && $0 != "#" }) ?? false {
                inside = line.hasPrefix("widgets:")
            } else if inside, line.hasPrefix("  "), !line.hasPrefix("   "), line.dropFirst(2).first != "#",
                line.hasSuffix(":") || line.contains(": ")
            {
                count += 1
            }
        }
        return count
    }
}
