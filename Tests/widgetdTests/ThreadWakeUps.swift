import Foundation
import Testing

/// Context switches of the thread of process `pid` named `name` (`/proc/PID/task/TID/comm`): how often that thread
/// woke, apart from the process's others. Nil when it has no such thread.
func threadContextSwitches(of pid: Int32, named name: String) throws -> Int? {
    let tasks = "/proc/\(pid)/task"
    for task in try FileManager.default.contentsOfDirectory(atPath: tasks) {
        let comm = (try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8)) ?? ""
        guard comm.trimmingCharacters(in: .newlines) == name else { continue }
        let status = try String(contentsOfFile: "\(tasks)/\(task)/status", encoding: .utf8)
        return status.split(separator: "\n")
            .filter { $0.hasPrefix("voluntary_ctxt_switches") || $0.hasPrefix("nonvoluntary_ctxt_switches") }
            .reduce(0) { $0 + (Int($1.split(separator: "\t").last.map(String.init) ?? "") ?? 0) }
    }
    return nil
}

/// Expects the thread `name` of process `pid` not to wake at all for `window`, once it has settled: a listener waiting
/// for its server (the session bus, the sound server) by inotify, with no timer.
///
/// The pause is the test: "it does not wake" can only be seen by letting the time pass.
func expectNoWakeUps(
    ofThread name: String, in pid: Int32, for window: Duration, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    func wakeUps() throws -> Int {
        try #require(
            try threadContextSwitches(of: pid, named: name), "no thread \(name)", sourceLocation: sourceLocation)
    }
    // A thread names itself once it runs, which can be after its process wrote what the test waited for.
    #expect(
        await waitFor("the thread \(name)", sourceLocation: sourceLocation) {
            (try? threadContextSwitches(of: pid, named: name)) != nil
        })
    #expect(
        try await waitForQuiet("the thread \(name) to settle", window: .milliseconds(200)) { try wakeUps() },
        sourceLocation: sourceLocation)
    let before = try wakeUps()
    try await Task.sleep(for: window)
    let after = try wakeUps()
    #expect(
        after == before, "the thread \(name) woke \(after - before) times in \(window)", sourceLocation: sourceLocation)
}
