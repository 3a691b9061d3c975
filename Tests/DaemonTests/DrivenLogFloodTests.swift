import Foundation
import Synchronization
import TestSupport
import Testing

/// Every source of log lines from outside is under the same limit (daemon.md, "Limits"), on the daemon in the test's
/// process (`DrivenDaemon`): clicks and intents on the FIFO, what they answer, a plugin's pushed reloads, and every
/// quoted outside value cut. 2,000 clicks logged 2,000 lines, a plugin's 400 reloads a second 3,842 lines in 10 s, and
/// a 3,000-character `item=` a 3,058-byte line. The limit's window passes on the daemon's clock.
@Suite("log floods from outside, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenLogFloodTests {
    @Test func clicksIntentsAndAPluginsReloadsAreLimitedAndQuotedShort() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let flooded = directory.url.path + "/flooded"
        let chatty = try directory.write(
            "chatty.py",
            """
            import json, sys, threading, time
            lock = threading.Lock()
            def send(message):
                with lock:
                    sys.stdout.write(json.dumps(message) + "\\n")
                    sys.stdout.flush()
            send({"type": "hello", "protocol": 1, "kind": {"name": "chatty"}})
            def flood():
                for _ in range(800):
                    send({"type": "reload"})
                    time.sleep(0.0025)
                open("\(flooded)", "w").close()
            threading.Thread(target=flood, daemon=True).start()
            for line in sys.stdin:
                request = json.loads(line)
                send({"id": request["id"], "entries": [{"text": "chat"}], "policy": "never"})

            """)
        let driven = try DrivenDaemon(
            config: """
                plugins:
                  chatty: [/usr/bin/python3, \(chatty)]
                widgets:
                  q:
                    kind: quotes
                    output: [plain]
                  x:
                    kind: exec
                    command: [sh, -c, "echo hi"]
                    output: [plain]
                  t:
                    kind: todos
                    output: [plain]
                  c:
                    kind: chatty
                    output: [plain]
                """)
        #expect(driven.turns(until: "every widget") { ["q", "x", "t", "c"].allSatisfy(driven.hasTimeline) })
        // More than the FIFO holds at once: written on a thread of its own while the turns read it.
        let fifo = try #require(FileHandle(forWritingAtPath: driven.runtime + "/control"))
        let long = String(repeating: "B", count: 3000)
        var lines = String(repeating: "click q 1\n", count: 2000)
        for _ in 0..<300 { lines += "click x 1\nintent t toggle item=\(long)\n" }
        let written = Mutex(false)
        Thread.detachNewThread { [lines] in
            fifo.write(Data(lines.utf8))
            try? fifo.close()
            written.withLock { $0 = true }
        }
        // Each line and each pushed reload wakes a turn: the flood is given a time, not a count of turns.
        #expect(
            driven.turns(until: "the lines read and the plugin's flood over", within: 60) {
                written.withLock { $0 } && FileManager.default.fileExists(atPath: flooded)
            }, "\(driven.log.suffix(2000))")
        // Each source's window ends with a count of what it held back.
        driven.advance(by: 5)
        #expect(
            driven.turns(until: "the clicks' count") {
                driven.log.contains("q: next: next quote (repeated")
                    && driven.log.contains("x: click: ran with BLOCK_BUTTON=1 (repeated")
            }, "\(driven.log.suffix(3000))")
        let logged = driven.log.split(separator: "\n").filter { !$0.hasPrefix("widgetd: debug:") }
        #expect(logged.count < 60, "\(logged.count) lines: \(logged.prefix(80))")
        #expect(logged.filter { $0.contains("asked to reload its widgets") }.count <= 10, "\(logged)")
        #expect(logged.allSatisfy { $0.count <= 500 }, "the longest: \(logged.map(\.count).max() ?? 0)")
        #expect(!driven.log.contains(String(repeating: "B", count: 81)), "an outside value quoted whole")
    }
}
