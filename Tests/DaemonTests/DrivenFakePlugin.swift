import Foundation
import TestSupport

/// The driven daemon with the test plugin of TestSupport's `FakePlugin.swift`, and what the plugin and the daemon show.
extension DrivenDaemon {
    /// A driven daemon whose `plugins:` runs the fake plugin in `mode` as kind `fake`, its state in `directory`.
    convenience init(fakePlugin mode: String, in directory: TemporaryDirectory, widgets: String) throws {
        let script = try writeFakePlugin(in: directory)
        try self.init(
            config: """
                plugins:
                  fake: [/usr/bin/python3, \(script), \(mode), fake, \(directory.url.path)]
                widgets:
                \(widgets)
                """)
    }

    /// The plain text a widget shows, without its newline.
    func shown(_ name: String) -> String? {
        read(name + ".plain").map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
    }

    /// How many times the log has `text`.
    func logged(_ text: String) -> Int {
        log.components(separatedBy: text).count - 1
    }
}

/// The lines the fake plugin wrote into `directory`: "hello" at each start, then a line per request.
func fakePluginLines(in directory: TemporaryDirectory) -> [Substring] {
    ((try? String(contentsOfFile: directory.url.path + "/requests", encoding: .utf8)) ?? "").split(separator: "\n")
}

/// Whether process `pid` is there at all, a zombie included (a zombie is a process nobody reaped).
func processExists(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
}

/// Whether process `pid` still runs: there, and no zombie. For an orphan the daemon ended but is not the parent of: it
/// is reaped by whoever adopted it, the test process itself when something in it made it a subreaper, which may never
/// wait for it.
func processRuns(_ pid: pid_t) -> Bool {
    guard processExists(pid) else { return false }
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    guard let end = stat.lastIndex(of: ")") else { return false }
    return stat[stat.index(after: end)...].split(separator: " ").first != "Z"
}
