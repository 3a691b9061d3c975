import Foundation
import TestSupport
import Testing

@testable import Daemon

/// Issue 36: a bar of sampled kinds wakes the daemon once per sample and never between, on the driven clock: after each
/// turn, the loop's next deadline is the interval's next boundary, where every widget of that interval is sampled in
/// the one turn.
@Suite("the daemon on a driven clock: sampled kinds' wakes", .waitsOnThreadsOfItsOwn)
struct DrivenSampledWakeTests {
    @Test func widgetsSampledEveryFiveSecondsWakeTheLoopOnlyAtTheBoundaries() throws {
        let tree = try FakeProcTree()
        defer { tree.directory.remove() }
        let driven = try DrivenDaemon(
            config: """
                widgets:
                  cpu: {kind: cpu, interval: 5s}
                  load: {kind: load, interval: 5s}
                """, kinds: tree.kinds)
        #expect(driven.turns(until: "both samples") { driven.hasTimeline("cpu") && driven.hasTimeline("load") })
        // Start-up's own last deadlines (the working set's trim after the first answers) pass first.
        for _ in 0..<10 {
            guard let wake = driven.daemon.nextHousekeeping(after: driven.daemon.engine.nextDeadline()) else { break }
            let boundary = (driven.clock.now.timeIntervalSince1970 / 5).rounded(.down) * 5 + 5
            if wake.timeIntervalSince1970 == boundary { break }
            driven.advance(by: wake.timeIntervalSince(driven.clock.now))
        }
        var wakes: [Double] = []
        for _ in 0..<6 {
            let wake = try #require(driven.daemon.nextHousekeeping(after: driven.daemon.engine.nextDeadline()))
            wakes.append(wake.timeIntervalSince1970)
            let loadBefore = driven.read("load.plain")
            try tree.load(String(format: "%.2f", Double(wakes.count)))
            driven.advance(by: wake.timeIntervalSince(driven.clock.now))
            #expect(
                driven.turns(until: "the sample at the boundary") { driven.read("load.plain") != loadBefore },
                "\(driven.log)")
        }
        let gaps = zip(wakes.dropFirst(), wakes).map { $0 - $1 }
        #expect(gaps == Array(repeating: 5, count: 5), "wakes \(wakes)")
        #expect(wakes.allSatisfy { $0.truncatingRemainder(dividingBy: 5) == 0 }, "wakes \(wakes)")
    }
}
