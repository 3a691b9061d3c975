import Foundation
import Testing
import TimeZones

@testable import CLI

/// The times `list` and `status` print: short for today, with the day within half a year, with the year beyond.
@Suite("short times in list and status")
struct ShortTimeTests {
    static let now = Date(timeIntervalSince1970: 1_796_203_800)  // 2026-12-02T09:30:00Z

    @Test(arguments: [
        ("2026-12-02T23:33:48Z", "23:33:48"),
        ("2026-12-01T09:00:00Z", "Dec  1 09:00"),
        ("2027-03-15T18:05:00Z", "Mar 15 18:05"),
        ("2099-01-01T00:00:00Z", "Jan  1  2099"),
        ("2025-06-01T12:00:00Z", "Jun  1  2025"),
    ])
    func aTimeIsAsShortAsItsDistanceAllows(iso: String, expected: String) {
        #expect(WidgetTable.shortTime(iso, now: Self.now, zone: .utc) == expected)
    }
}
