import Testing
import YAML

/// What a check keeps of its errors: the first in the file, made only when they are among them, and a count that stops.
@Suite("Earliest errors")
struct EarliestErrorsTests {
    static func at(_ line: Int, _ column: Int = 1) -> YAMLMark { YAMLMark(line: line, column: column) }

    @Test func keepsTheEarliestInTheFileWhateverOrderTheyCameIn() {
        var errors = EarliestErrors<Int>(keep: 3, limit: 100)
        for line in [9, 4, 7, 1, 8, 2] { errors.add(at: Self.at(line)) { line } }
        #expect(errors.errors == [1, 2, 4])
        #expect(errors.count == 6)
        #expect(!errors.isFull)
    }

    /// An error after every kept one costs its count alone: its message is never made.
    @Test func anErrorThatCannotBeShownIsNeverMade() {
        var errors = EarliestErrors<Int>(keep: 2, limit: 100)
        var made: [Int] = []
        for line in [1, 2, 3, 4, 0] {
            errors.add(at: Self.at(line)) {
                made.append(line)
                return line
            }
        }
        #expect(made == [1, 2, 0])
        #expect(errors.errors == [0, 1])
        #expect(errors.count == 5)
    }

    /// Two errors at one place (the same aliased node, used twice) keep the order they were found in.
    @Test func errorsAtOnePlaceKeepTheirOrder() {
        var errors = EarliestErrors<String>(keep: 4, limit: 100)
        errors.add(at: Self.at(2)) { "first at 2" }
        errors.add(at: Self.at(1, 5)) { "at 1" }
        errors.add(at: Self.at(2)) { "second at 2" }
        errors.add(at: Self.at(2)) { "third at 2" }
        errors.add(at: Self.at(2)) { "fourth at 2" }
        #expect(errors.errors == ["at 1", "first at 2", "second at 2", "third at 2"])
    }

    /// Past the limit nothing is counted or made, and the check is told to stop.
    @Test func countingStopsAtTheLimit() {
        var errors = EarliestErrors<Int>(keep: 2, limit: 5)
        var made = 0
        for line in (1...10).reversed() {
            errors.add(at: Self.at(line)) {
                made += 1
                return line
            }
        }
        #expect(errors.count == 5)
        #expect(errors.isFull)
        #expect(errors.errors == [6, 7])
        #expect(made == 5)
    }
}
