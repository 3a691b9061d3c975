import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Daemon

/// A flood of clicks on command widgets (45,000 in 20 s in the soak) queued behind the 16 threads that run them, for
/// minutes after the flood stopped, and every `--wait` waited behind them. Past 64 waiting or running, a click is
/// refused at once and said so (daemon.md, "Limits"); a widget's `on_click` program is started 64 times at once at
/// most.
@Suite("a flood of clicks on command widgets, on the driven daemon", .waitsOnThreadsOfItsOwn)
struct DrivenClickFloodTests {
    @Test func clicksPastTheBoundAreRefusedAndTheDaemonAnswersMeanwhile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let runs = directory.url.path + "/runs"
        let driven = try DrivenDaemon(
            config: """
                widgets:
                  slow:
                    kind: exec
                    command: [sh, -c, 'if [ -n "$BLOCK_BUTTON" ]; then echo run >> \(runs); sleep 1; fi; echo slow']
                    output: [plain]
                  quote:
                    kind: quotes
                    output: [plain]
                """)
        #expect(driven.turns(until: "both widgets") { driven.hasTimeline("slow") && driven.hasTimeline("quote") })
        // More than the FIFO holds at once: written on a thread of its own while the turns read it.
        let fifo = try #require(FileHandle(forWritingAtPath: driven.runtime + "/control"))
        let written = Mutex(false)
        Thread.detachNewThread {
            fifo.write(Data(String(repeating: "click slow 1\n", count: 300).utf8))
            try? fifo.close()
            written.withLock { $0 = true }
        }
        #expect(
            driven.turns(until: "the refusals") {
                written.withLock { $0 }
                    && driven.log.contains(
                        "slow: click not run: 64 clicks and intents on command widgets are still waiting")
            }, "\(driven.log.suffix(2000))")
        // Another widget's reload is answered while the accepted clicks run.
        let started = ContinuousClock.now
        let reload = driven.commandTakingTurns(["reload", "quote", "--wait"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(ContinuousClock.now - started < .seconds(3))
        // A click past the bound, with --wait, hears why.
        let refused = driven.commandTakingTurns(["click", "slow", "--wait"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("clicks and intents on command widgets are still waiting or running"))
        let ran = ((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").split(separator: "\n").count
        #expect(ran <= 64, "\(ran) clicks ran")
    }

    /// A flood of click lines starts at most `Daemon.clickCommandsAtOnce` of a widget's `on_click` program at once; the
    /// rest are refused and logged (200 lines started 200 processes). The programs are found by an argument of their
    /// own: other tests' processes share this one.
    @Test func aFloodOfClicksStartsABoundedNumberOfPrograms() throws {
        let marker = "1000.\(UInt32.random(in: 1...999_999))"
        let driven = try DrivenDaemon(
            config: "widgets:\n  quote:\n    kind: quotes\n    on_click: {right: [sleep, \"\(marker)\"]}\n")
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        // Under PIPE_BUF, one read.
        #expect(driven.writeToFIFO(String(repeating: "click quote 3\n", count: 80)))
        #expect(
            driven.turns(until: "the refusals") { driven.log.contains("64 click commands are still running") },
            "\(driven.log.suffix(2000))")
        // Every start was made in the turn that read the lines and logged the refusals; a program shows its argument once
        // its exec is done.
        var programs: [pid_t] = []
        #expect(
            driven.turns(until: "the programs' execs") {
                programs = Self.processes(withArgument: marker)
                return programs.count >= Daemon.clickCommandsAtOnce
            })
        // They outlive the daemon by design (their own session): the test ends them, and the daemon reaps them.
        defer {
            for pid in programs { kill(pid, SIGKILL) }
            driven.turns(until: "the programs reaped") { programs.allSatisfy { kill($0, 0) != 0 } }
        }
        #expect(programs.count == 64, "\(programs.count) programs")
        #expect(driven.daemon.clickCommands.count == 64)
    }

    /// The processes whose command line has `argument`.
    static func processes(withArgument argument: String) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
            guard let pid = pid_t(name), let command = FileManager.default.contents(atPath: "/proc/\(name)/cmdline")
            else { return nil }
            return command.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == argument } ? pid : nil
        }
    }
}
