extension CronExpression {
    /// Why the expression matches no minute ever, with the character offset of the day-of-month field; nil when it
    /// fires at all.
    ///
    /// Only the days can rule every time out: day-of-month values that none of the chosen months has (`0 0 31 2 *`,
    /// `0 0 30,31 2,4 *`), when the day-of-week field is `*` (when both are restricted, Vixie's rule fires on either,
    /// and any weekday comes every week). February counts 29 days: `0 0 29 2 *` fires in leap years. Decided from the
    /// fields alone, so the answer does not depend on today's date or an 8-year search window.
    public var neverFiresReason: (text: String, offset: Int)? {
        guard daysOfMonth.isRestricted, !daysOfWeek.isRestricted else { return nil }
        let longest = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let days = daysOfMonth.values
        let chosenMonths = months.values
        guard let shortest = days.first,
            !chosenMonths.contains(where: { month in shortest <= longest[month - 1] })
        else { return nil }
        let names = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        let monthList = Self.sentenceList(chosenMonths.map { names[$0 - 1] })
        let dayList = days.count == 1 ? "day \(shortest)" : "days " + Self.sentenceList(days.map(String.init))
        let verb = chosenMonths.count == 1 ? "has" : "have"
        return ("\(monthList) \(verb) no \(dayList)", dayOfMonthOffset)
    }

    /// Where the third field starts in `source` (characters), for pointing at it.
    private var dayOfMonthOffset: Int {
        var offset = 0
        var fields = 0
        var inField = false
        for character in source {
            let blank =
                character == " " || character == "\t" || character == "\n" || character == "\r\n"
                || character == "\r"
            if !blank, !inField {
                if fields == 2 { return offset }
                fields += 1
            }
            inField = !blank
            offset += 1
        }
        return 0
    }

    private static func sentenceList(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
