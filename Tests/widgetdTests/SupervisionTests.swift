import Foundation
import Glibc
import Testing

/// Issue 38, item 5: a persist command or a plugin is supervised by its process, not by its pipe. One that exited
/// while a child it started kept its standard output open stayed a zombie, shown as running, its requests timing out
/// for ever; a plugin that said hello and then never answered was never restarted.
@Suite("supervision by process", .spawnsDaemons)
struct SupervisionTests {
    @Test func aPersistCommandWhoseChildKeepsItsOutputIsStartedAgainWhenItExits() async throws {
        let daemon = try DaemonUnderTest(
            config: """
                widgets:
                  keeper:
                    kind: exec
                    interval: persist
                    command: [sh, -c, 'sleep 1000 & echo "$$ $!"']
                    output: [plain]

                """)
        /// The script's pid and its background child's, from the line it printed.
        func shown() -> (script: pid_t, child: pid_t)? {
            let words = (daemon.read("keeper.plain") ?? "").split(whereSeparator: \.isWhitespace).compactMap {
                pid_t($0)
            }
            return words.count == 2 ? (words[0], words[1]) : nil
        }
        #expect(await daemon.waitFor("the first run's line") { shown() != nil }, "\(daemon.log)")
        let first = try #require(shown())
        #expect(
            await daemon.waitFor("a second run's line") { shown().map { $0.script != first.script } == true },
            "\(daemon.log)")
        #expect(daemon.log.contains("keeper: exited; starting it again in 1 s"), "\(daemon.log)")
        // Reaped, and what it left in its group ended and reaped with it.
        #expect(await waitFor("the first script to be gone") { !exists(first.script) })
        #expect(await waitFor("its background child to be gone") { !exists(first.child) })
    }
}

/// Whether process `pid` is there at all, a zombie included (a zombie is a process nobody reaped).
private func exists(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
}
