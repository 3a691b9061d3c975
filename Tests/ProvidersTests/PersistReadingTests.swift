import Foundation
import Testing

@testable import Providers

@Suite("persist output: lines at a cap, reads within a budget")
struct PersistReadingTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func feed(_ lines: inout CappedLines, _ text: String) -> [CappedLines.Line] {
        Array(text.utf8).withUnsafeBufferPointer { lines.feed($0) }
    }

    private func line(_ text: String, cut: Bool = false) -> CappedLines.Line {
        CappedLines.Line(bytes: Array(text.utf8), cut: cut)
    }

    @Test func linesAreSplitAcrossReads() {
        var lines = CappedLines(cap: 8)
        #expect(feed(&lines, "ab") == [])
        #expect(feed(&lines, "c\nde\n\nf") == [line("abc"), line("de"), line("")])
        #expect(feed(&lines, "\n") == [line("f")])
    }

    @Test func aLineAtTheCapIsGivenCutAndTheRestOfItDropped() {
        var lines = CappedLines(cap: 4)
        #expect(feed(&lines, "abc") == [])
        #expect(feed(&lines, "defgh") == [line("abcd", cut: true)])
        // A line with no end is never given again, however long it goes on.
        for _ in 0..<3 { #expect(feed(&lines, "xxxxxxxxxx") == []) }
        #expect(feed(&lines, "yy\nok\n") == [line("ok")])
        // Exactly the cap before the newline is a cut line too, as one update is capped.
        #expect(feed(&lines, "abcd\nz\n") == [line("abcd", cut: true), line("z")])
    }

    @Test func readsPastTheBudgetWaitForTheWindowsEnd() {
        var budget = ReadBudget(perSecond: 3)
        #expect(budget.resumes(after: start) == nil)
        for index in 0..<3 {
            #expect(budget.resumes(after: start.addingTimeInterval(0.1 * Double(index))) == nil)
            budget.spend(now: start.addingTimeInterval(0.1 * Double(index)))
        }
        #expect(budget.resumes(after: start.addingTimeInterval(0.5)) == start.addingTimeInterval(1))
        #expect(budget.resumes(after: start.addingTimeInterval(1)) == nil)
        budget.spend(now: start.addingTimeInterval(1.2))
        #expect(budget.resumes(after: start.addingTimeInterval(1.3)) == nil)
    }
}
