import Control
import Foundation
import Testing

@testable import Daemon

/// Issue 10, items 7 and 11: failed output writes are retried on a backing-off deadline; acknowledgement files are
/// removed on a deadline and bounded.
@Suite("output retries and acknowledgement files")
struct OutputRetryTests {
    private static let start = Date(timeIntervalSince1970: 1_000_000)

    @Test func failedWritesAreRetriedWithABackOffUntilTheyWork() {
        var retry = OutputRetry()
        #expect(retry.due == nil && retry.failure(of: "quote") == nil)
        retry.failed("quote", .entry, reason: "quote: cannot write its entry: ENOSPC", now: Self.start)
        retry.failed("clock", .record, reason: "clock: cannot write its record: ENOSPC", now: Self.start)
        #expect(retry.failure(of: "quote") == "quote: cannot write its entry: ENOSPC")
        #expect(retry.due == Self.start.addingTimeInterval(0.5))
        #expect(retry.take(now: Self.start.addingTimeInterval(0.4)).isEmpty, "not due yet")

        // Each retry that fails again waits twice as long, up to 30 s.
        var now = Self.start.addingTimeInterval(0.5)
        var delays: [TimeInterval] = []
        for _ in 0..<10 {
            let taken = retry.take(now: now)
            #expect(taken.map(\.instance) == ["clock", "quote"])
            let next = try! #require(retry.due)
            delays.append(next.timeIntervalSince(now))
            now = next
        }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30, 30, 30])

        // Once every failed write works, nothing is due and the back-off starts over.
        retry.succeeded("quote", .entry)
        #expect(retry.due != nil)
        retry.succeeded("clock", .record)
        #expect(retry.due == nil && retry.isEmpty)
        retry.failed("quote", .entry, reason: "again", now: now)
        #expect(retry.due == now.addingTimeInterval(0.5))
        retry.forget("quote")
        #expect(retry.due == nil)
    }

    @Test func acknowledgementFilesExpireInOrderAndStayBounded() throws {
        var files = AcknowledgementFiles()
        #expect(files.nextRemoval == nil)
        let first = try #require(ControlCommand.AckToken("a"))
        let second = try #require(ControlCommand.AckToken("b"))
        #expect(files.wrote(first, now: Self.start).isEmpty)
        #expect(files.wrote(second, now: Self.start.addingTimeInterval(3)).isEmpty)
        #expect(files.nextRemoval == Self.start.addingTimeInterval(AcknowledgementFiles.lifetime))
        #expect(files.expired(now: Self.start.addingTimeInterval(9.9)).isEmpty)
        #expect(files.expired(now: Self.start.addingTimeInterval(10)) == [first])
        #expect(files.expired(now: Self.start.addingTimeInterval(13)) == [second])
        #expect(files.nextRemoval == nil)

        var overflow: [ControlCommand.AckToken] = []
        for index in 0..<(AcknowledgementFiles.limit + 5) {
            overflow += files.wrote(try #require(ControlCommand.AckToken("t\(index)")), now: Self.start)
        }
        #expect(overflow.map(\.rawValue) == (0..<5).map { "t\($0)" }, "the oldest go at once past the limit")
        #expect(files.count == AcknowledgementFiles.limit)
    }
}
