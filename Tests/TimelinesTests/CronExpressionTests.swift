import Testing
import Timelines

@Suite("cron expression parsing")
struct CronExpressionTests {
    @Test func listsRangesStepsAndNames() throws {
        let cron = try CronExpression(parsing: "0,30 9-17/2 1-7 jan,jul mon-fri")
        #expect(cron.minutes.values == [0, 30])
        #expect(cron.hours.values == [9, 11, 13, 15, 17])
        #expect(cron.daysOfMonth.values == Array(1...7))
        #expect(cron.months.values == [1, 7])
        #expect(cron.daysOfWeek.values == [1, 2, 3, 4, 5])
    }

    @Test func stepFromAStartRunsToTheFieldsEnd() throws {
        let cron = try CronExpression(parsing: "5/20 * * * *")
        #expect(cron.minutes.values == [5, 25, 45])
    }

    @Test func sevenIsSunday() throws {
        let cron = try CronExpression(parsing: "0 0 * * 5-7")
        #expect(cron.daysOfWeek.values == [0, 5, 6])
    }

    @Test(arguments: [
        ("@hourly", "0 * * * *"), ("@daily", "0 0 * * *"), ("@midnight", "0 0 * * *"), ("@weekly", "0 0 * * 0"),
        ("@monthly", "0 0 1 * *"), ("@yearly", "0 0 1 1 *"), ("@annually", "0 0 1 1 *"),
    ])
    func shorthands(_ macro: String, _ fields: String) throws {
        let short = try CronExpression(parsing: macro)
        let long = try CronExpression(parsing: fields)
        #expect(short.minutes == long.minutes)
        #expect(short.hours == long.hours)
        #expect(short.daysOfMonth == long.daysOfMonth)
        #expect(short.months == long.months)
        #expect(short.daysOfWeek == long.daysOfWeek)
    }

    @Test func vixieDayRule() throws {
        // Both restricted: either matches.
        let both = try CronExpression(parsing: "0 0 13 * fri")
        #expect(both.matchesDay(dayOfMonth: 13, weekday: 2))
        #expect(both.matchesDay(dayOfMonth: 10, weekday: 5))
        #expect(!both.matchesDay(dayOfMonth: 10, weekday: 2))
        // A field starting with `*` is unrestricted, even with a step: then both must match.
        let stepped = try CronExpression(parsing: "0 0 */2 * fri")
        #expect(stepped.matchesDay(dayOfMonth: 3, weekday: 5))
        #expect(!stepped.matchesDay(dayOfMonth: 2, weekday: 5))
        #expect(!stepped.matchesDay(dayOfMonth: 3, weekday: 4))
    }

    struct BadExpression: Sendable, CustomTestStringConvertible {
        var text: String
        var field: CronField.Position?
        var offset: Int
        var reason: String
        var testDescription: String { text }
    }

    @Test(arguments: [
        BadExpression(text: "60 * * * *", field: .minute, offset: 0, reason: "60 is out of range 0-59"),
        BadExpression(text: "* 24 * * *", field: .hour, offset: 2, reason: "24 is out of range 0-23"),
        BadExpression(text: "* * 0 * *", field: .dayOfMonth, offset: 4, reason: "0 is out of range 1-31"),
        BadExpression(text: "* * * 13 *", field: .month, offset: 6, reason: "13 is out of range 1-12"),
        BadExpression(text: "* * * foo *", field: .month, offset: 6, reason: "'foo' is not a number 1-12 or a name"),
        BadExpression(text: "* * * * 8", field: .dayOfWeek, offset: 8, reason: "8 is out of range 0-7"),
        BadExpression(text: "*/0 * * * *", field: .minute, offset: 2, reason: "step 0 must be 1 to 59"),
        BadExpression(text: "*/x * * * *", field: .minute, offset: 2, reason: "step 'x' is not a number"),
        BadExpression(text: "30-10 * * * *", field: .minute, offset: 0, reason: "runs backwards"),
        BadExpression(text: "1,,2 * * * *", field: .minute, offset: 2, reason: "empty list item"),
        BadExpression(text: "* * * *", field: nil, offset: 7, reason: "expected 5 fields"),
        BadExpression(text: "* * * * * *", field: nil, offset: 10, reason: "found 6"),
        BadExpression(text: "@hourli", field: nil, offset: 0, reason: "did you mean '@hourly'?"),
        BadExpression(text: "@reboot", field: nil, offset: 0, reason: "unknown shorthand '@reboot'"),
    ])
    func badExpressionsNameTheField(_ bad: BadExpression) {
        #expect {
            try CronExpression(parsing: bad.text)
        } throws: { error in
            guard let error = error as? CronError else { return false }
            #expect(error.field == bad.field)
            #expect(error.offset == bad.offset)
            #expect(error.description.contains(bad.reason), "\(error.description)")
            if let field = bad.field { #expect(error.description.hasPrefix("\(field.name) field: ")) }
            return true
        }
    }
}
