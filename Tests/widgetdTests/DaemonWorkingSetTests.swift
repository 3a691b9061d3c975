import Foundation
import Testing

/// The daemon hands back start-up's mapped files once every widget has answered (`Daemon+WorkingSet`), and goes on
/// serving from what faults back in.
@Suite("daemon: start-up's working set", .spawnsDaemons)
struct DaemonWorkingSetTests {
    static let trimmed = "handing back start-up's mapped files"

    /// `VmRSS` and `VmHWM` (its peak) of process `pid`, in kB.
    static func resident(_ pid: Int32) -> (now: Int, peak: Int)? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { Int($0.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first ?? "") }
        }
        guard let now = field("VmRSS"), let peak = field("VmHWM") else { return nil }
        return (now, peak)
    }

    @Test(.aheadInLine) func onceEveryWidgetHasAnsweredStartUpsPagesGoAndTheDaemonServesOn() async throws {
        let daemon = try DaemonUnderTest(
            config: """
                widgets:
                  q:
                    kind: quotes
                    output: [plain]
                  c:
                    kind: clock
                    intent: {format: "%T", seconds: true}
                    output: [plain]

                """)
        let pid = daemon.process.processIdentifier
        #expect(await daemon.waitFor("the trim") { daemon.log.contains(Self.trimmed) }, "\(daemon.log)")
        // Not before every widget answered.
        let log = daemon.log
        let trim = try #require(log.range(of: Self.trimmed))
        for name in ["q", "c"] {
            let answered = try #require(log.range(of: "\(name): shows"), "\(log)")
            #expect(answered.upperBound <= trim.lowerBound, "\(name)")
        }
        // Nothing else frees megabytes at start-up: the resident set falls well below its peak only by the trim.
        #expect(
            await waitFor("the resident set below its peak") {
                Self.resident(pid).map { $0.now < $0.peak * 3 / 4 } ?? false
            }, "\(String(describing: Self.resident(pid)))")
        // The code a reload and a swap run faults back in.
        let before = daemon.read("c.plain")
        let reload = try await daemon.cli(["reload", "q", "--wait"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(await daemon.waitFor("the clock's next swap") { daemon.read("c.plain") != before })
        // A config reload parses again, and trims again once its widgets have answered.
        try daemon.editConfig("widgets:\n  q2:\n    kind: quotes\n    output: [plain]\n")
        #expect(
            await daemon.waitFor("the second trim") {
                daemon.log.components(separatedBy: Self.trimmed).count == 3
            }, "\(daemon.log)")
        #expect(daemon.read("q2.plain")?.isEmpty == false)
    }
}
