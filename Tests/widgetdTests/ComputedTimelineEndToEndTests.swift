import Formats
import Foundation
import TestSupport
import Testing

/// A per-second clock is kept as a rule (start, step, count, format, zone), not as an hour of texts: the built daemon
/// writes that small record, and `show`, `show --follow` and `widgetd bar` write the time out from it.
@Suite("computed timelines, end to end", .spawnsDaemons)
struct ComputedTimelineEndToEndTests {
    static let config = """
        widgets:
          kolkata:
            kind: clock
            timezone: Asia/Kolkata
            intent:
              seconds: true
              format: "%H:%M:%S %Z"

        """

    /// Every text the clock may have shown from `start` to now, by an independent formatter.
    static func textsSince(_ start: Date) -> Set<String> {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Asia/Kolkata")
        formatter.dateFormat = "HH:mm:ss"
        let first = start.timeIntervalSince1970.rounded(.down)
        let last = Date().timeIntervalSince1970.rounded(.down)
        return Set(
            stride(from: first, through: last, by: 1).map {
                formatter.string(from: Date(timeIntervalSince1970: $0)) + " IST"
            })
    }

    @Test(.aheadInLine) func theRecordIsSmallAndEveryReaderWritesOutTheCurrentSecond() async throws {
        let start = Date()
        let daemon = try DaemonUnderTest(config: Self.config)
        #expect(await daemon.waitFor("the first timeline") { daemon.hasTimeline("kolkata") })

        let recordPath = daemon.output + "/kolkata.json"
        let data = try Data(contentsOf: URL(fileURLWithPath: recordPath))
        #expect(data.count < 4096, "\(data.count) bytes")
        let record = try JSONDecoder().decode(InstanceRecord.self, from: data)
        #expect(record.entries.isEmpty)
        #expect(record.sequence?.count == 3600)
        #expect(record.sequence?.timeZone.identifier == "Asia/Kolkata")

        let shown = try await daemon.cli(["show", "kolkata"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(Self.textsSince(start).contains(String(shown.stdout.dropLast())), "\(shown.stdout)")

        let follower = try Follower(daemon, showing: "kolkata")
        #expect(await waitFor("three lines from show --follow") { follower.lines.count >= 3 })
        let followed = follower.lines.map(String.init)
        let valid = Self.textsSince(start)
        #expect(followed.allSatisfy(valid.contains), "\(followed)")
        #expect(Set(followed).count == followed.count, "\(followed)")

        let bar = try BarCommandTests.Bar(daemon, ["--widgets", "kolkata"])
        #expect(await waitFor("two status lines from widgetd bar") { bar.statusLines.count >= 2 })
        let texts = bar.statusLines.compactMap { $0.first?["full_text"] as? String }
        let validNow = Self.textsSince(start)
        #expect(texts.count >= 2 && texts.allSatisfy(validNow.contains), "\(texts)")
    }

    /// No daemon runs: `show` reads the record where the daemon would have left it.
    @Test func aRecordOfThePreviousVersionIsReadByShow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try directory.write("widgets.yaml", Self.config)
        let output = directory.url.path + "/run/widgetd/out"
        try FileManager.default.createDirectory(
            atPath: output, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // The previous version's per-second record: stored entries (here the last of an hour that has passed).
        let old =
            #"{"entries":[{"date":1700000000,"text":"13:30:00 IST"},{"date":1700000001,"text":"13:30:01 IST"}],"fallback":{"text":"--:--"},"family":"systemSmall","instance":"kolkata","kind":"clock"}"#
        try Data((old + "\n").utf8).write(to: URL(fileURLWithPath: output + "/kolkata.json"))
        let shown = try runWidgetd(
            ["show", "kolkata", "--config", config],
            environment: ["XDG_RUNTIME_DIR": directory.url.path + "/run", "HOME": directory.url.path])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout == "13:30:01 IST\n")
    }
}
