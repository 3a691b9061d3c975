import Foundation
import Glibc
import TestSupport
import Testing

@testable import Daemon

/// What a start leaves in place: every configured format and the record, a private output directory and FIFO,
/// `daemon.json` for the CLI (gone at a clean stop), and none of the acknowledgements a daemon before left. The whole
/// daemon in this process, on a clock the test moves (`DrivenDaemon`).
@Suite("the daemon on a driven clock: what a start writes", .waitsOnThreadsOfItsOwn)
struct DrivenStartTests {
    static let config = SampleConfigs.quoteAndSeconds

    @Test func writesEveryConfiguredFormatAndTheCanonicalEntryAndRemovesStaleAcknowledgements() throws {
        let earlier = try DrivenDaemon(config: Self.config)
        earlier.stop()
        // Acknowledgements a daemon before left, which nobody waits for any more (`RuntimeDirectoryTests`).
        let acks = earlier.runtime + "/acks"
        for index in 0..<50 { try "".write(toFile: acks + "/stale\(index)", atomically: false, encoding: .utf8) }
        let driven = try DrivenDaemon(config: Self.config, reusing: earlier)
        #expect(try FileManager.default.contentsOfDirectory(atPath: acks).isEmpty, "stale ones go at start-up")
        // The status file is written after the first timeline's entry is in every format.
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        let plain = try #require(driven.read("quote.plain"))
        #expect(!plain.isEmpty && plain.hasSuffix("\n"))
        #expect(driven.read("quote.i3blocks")?.hasPrefix(plain) == true)
        #expect(driven.read("quote.json")?.contains("\"kind\":\"quotes\"") == true)
        let attributes = try FileManager.default.attributesOfItem(atPath: driven.output)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        var fifo = stat()
        #expect(lstat(driven.runtime + "/control", &fifo) == 0)
        #expect(fifo.st_mode & S_IFMT == S_IFIFO)
        #expect(fifo.st_mode & 0o777 == 0o600)
    }

    /// daemon.json names the pid, the config, the output directory and the start; it goes at a clean stop.
    /// `widgetd run` beside a running daemon is refused by the lock, naming the daemon that holds it, and takes nothing of
    /// the running one's: its FIFO still answers. The running one's stop then takes its FIFO and lock with it.
    @Test func aSecondDaemonRefusesToStartAndTheStopIsClean() throws {
        let driven = try DrivenDaemon(config: Self.config)
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        let second = driven.startRefused()
        #expect(second?.status == 1)
        #expect(second?.stderr == "widgetd: already running (pid \(getpid()))\n", "\(second?.stderr ?? "")")
        #expect(driven.reloadIsAcknowledged("quote", token: "after-the-refusal"))
        driven.stop()
        #expect(access(driven.runtime + "/control", F_OK) != 0, "the FIFO is removed")
        #expect(access(driven.runtime + "/lock", F_OK) != 0, "the lock is removed")
        #expect(driven.log.contains("widgetd: info: stopped"), "\(driven.log)")
    }

    @Test func theStateFileNamesTheDaemonAndGoesAtACleanStop() throws {
        let driven = try DrivenDaemon(config: Self.config)
        let path = driven.runtime + "/daemon.json"
        let state =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        #expect(state?["pid"] as? Int == Int(getpid()))
        #expect(state?["config"] as? String == driven.configPath)
        #expect(state?["output"] as? String == driven.output)
        #expect((state?["startedAt"] as? String)?.hasPrefix("20") == true)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        driven.stop()
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
