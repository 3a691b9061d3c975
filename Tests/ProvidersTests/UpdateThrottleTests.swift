import Foundation
import Testing

@testable import Providers

@Suite("persist update throttle")
struct UpdateThrottleTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func linesUnderTheRateShowAtOnce() {
        var throttle = UpdateThrottle(perSecond: 3)
        for index in 0..<3 {
            #expect(throttle.offer("l\(index)", now: start.addingTimeInterval(Double(index) * 0.1)) == "l\(index)")
        }
        #expect(throttle.nextRelease == nil)
        // A new second, a new allowance.
        #expect(throttle.offer("next", now: start.addingTimeInterval(1.01)) == "next")
    }

    @Test func aFloodKeepsOnlyTheNewestLineForTheNextSecond() {
        var throttle = UpdateThrottle(perSecond: 2)
        #expect(throttle.offer("a", now: start) == "a")
        #expect(throttle.offer("b", now: start) == "b")
        for index in 0..<100 { #expect(throttle.offer("x\(index)", now: start.addingTimeInterval(0.5)) == nil) }
        #expect(throttle.nextRelease == start.addingTimeInterval(1))
        #expect(throttle.release(now: start.addingTimeInterval(0.9)) == nil)
        let released = throttle.release(now: start.addingTimeInterval(1))
        #expect(released?.line == "x99")
        #expect(released?.skipped == 99)
        #expect(throttle.nextRelease == nil)
        // The release counts as the new window's first line.
        #expect(throttle.offer("c", now: start.addingTimeInterval(1.1)) == "c")
        #expect(throttle.offer("d", now: start.addingTimeInterval(1.2)) == nil)
    }
}
