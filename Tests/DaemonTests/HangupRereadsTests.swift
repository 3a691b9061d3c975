import Foundation
import Testing

@testable import Daemon

/// When SIGHUPs re-read the config (`HangupRereads`), on a clock the test moves: no daemon, signal or sleeping.
@Suite("SIGHUP re-reads: at once, at most one a second, none lost")
struct HangupRereadsTests {
    private static let start = Date(timeIntervalSince1970: 2_000_000_000)

    @Test func theFirstSIGHUPIsReadAtOnceAndAStormMakesOneMoreASecondLater() {
        let clock = ManualClock(Self.start)
        var rereads = HangupRereads()
        #expect(rereads.due == nil)
        rereads.taken(now: clock.now)
        let first = rereads.takeDue(now: clock.now)
        #expect(first)
        let again = rereads.takeDue(now: clock.now)
        #expect(!again, "one re-read per SIGHUP taken")
        // A storm right after: it waits for the spacing, and makes one re-read.
        for _ in 0..<100 {
            clock.advance(by: 0.005)
            rereads.taken(now: clock.now)
        }
        #expect(rereads.due == Self.start + HangupRereads.spacing)
        let duringTheStorm = rereads.takeDue(now: clock.now)
        #expect(!duringTheStorm)
        clock.advance(by: HangupRereads.spacing)
        let afterTheSpacing = rereads.takeDue(now: clock.now)
        #expect(afterTheSpacing)
        #expect(rereads.due == nil)
    }

    @Test func aSIGHUPLongAfterTheLastReReadIsReadAtOnce() {
        let clock = ManualClock(Self.start)
        var rereads = HangupRereads()
        rereads.taken(now: clock.now)
        _ = rereads.takeDue(now: clock.now)
        clock.advance(by: 60)
        rereads.taken(now: clock.now)
        #expect(rereads.due == clock.now)
        let atOnce = rereads.takeDue(now: clock.now)
        #expect(atOnce)
    }
}
