import FoundationEssentials
import TimeZones

extension CronExpression {
    /// The first fire time strictly after `date`, reading the fields as wall-clock time in `timeZone`; nil when
    /// nothing matches within 8 years, that is up to and including the same wall-clock time 8 years on (e.g.
    /// `0 0 30 2 *`, `0 0 31 4 *`). Eight years covers Feb 29 across a non-leap century year (2096 → 2104); only
    /// rare day-of-month-and-weekday combinations repeat less often (`0 0 */29 2 mon`: Feb 1 on a Monday, 2027
    /// then 2038) and give nil far from their next match.
    ///
    /// Fire times are whole minutes of local time (seconds 0), so a `date` at exactly 10:00:00 gives the next
    /// fire time after 10:00, never 10:00 itself. Dates are in the proleptic Gregorian calendar (the same as
    /// Foundation's `Calendar(identifier: .gregorian)` for any date after 1582), for any year.
    ///
    /// **Daylight saving time.** Foundation's rule for a local time that does not exist (shift it by the gap, so
    /// 02:30 becomes 03:30) is not used. Instead (DESIGN.md §3):
    ///
    /// - *Skipped times* (spring forward, e.g. Europe/Berlin 2026-03-29, 02:00 CET → 03:00 CEST): a fire time
    ///   whose wall-clock time falls inside the gap fires once, at the end of the gap — the instant of the
    ///   transition (03:00 CEST = 01:00Z). Several such times in one gap (`*/15 2 * * *`) fire only once there,
    ///   and a time that also matches the gap's end itself (`0 2,3 * * *`) fires once too.
    /// - *Repeated times* (fall back, e.g. Europe/Berlin 2026-10-25, 03:00 CEST → 02:00 CET): a wall-clock time
    ///   that occurs twice fires once, at its first occurrence (the earlier, summer-time instant: `30 2 * * *`
    ///   fires at 02:30 CEST = 00:30Z, not at 02:30 CET = 01:30Z).
    /// - *Exception for wildcard hours*, after Vixie cron (whose `HR_STAR` flag is set the same way; Vixie also
    ///   exempts a `*`-based minute field, this rule does not): when the hour field is unrestricted — written
    ///   starting with `*`, so `*` or `*/N`, which is `hours.isRestricted == false` — the job runs by real time:
    ///   nonexistent times are simply skipped (`30 * * * *` fires 01:30 CET, then 03:30 CEST), and repeated
    ///   times fire in both passes (`*/30 * * * *` fires 02:00 CEST, 02:30 CEST, 02:00 CET, 02:30 CET).
    ///
    /// Pure (no shared state, safe from any thread) and fast: the search walks the fields (month → day → hour →
    /// minute) over wall-clock time within one UTC-offset period at a time, so it skips whole months, days and
    /// hours; it asks the time zone only for offsets and for the next transition.
    public func nextDate(after date: Date, in timeZone: Zone) -> Date? {
        let seconds = date.timeIntervalSince1970
        // The 8-year horizon must stay inside the instants a zone describes (±2^55 s, a billion years).
        guard seconds.isFinite, abs(seconds) < Double(Zone.supportedInstants.upperBound / 2) else { return nil }
        let earliest = Int(seconds.rounded(.down)) + 1
        return nextInstant(onOrAfter: earliest, in: timeZone).map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// The next `count` fire times after `date`, in order, following the rules of `nextDate(after:in:)`; fewer
    /// (possibly none) when the schedule stops matching, empty when `count` is not positive.
    public func nextDates(after date: Date, count: Int, in timeZone: Zone) -> [Date] {
        guard count > 0 else { return [] }
        var dates: [Date] = []
        dates.reserveCapacity(Swift.min(count, 1024))
        var cursor = date
        while dates.count < count, let next = nextDate(after: cursor, in: timeZone) {
            dates.append(next)
            cursor = next
        }
        return dates
    }

    // MARK: - Search

    /// The first fire instant (seconds since 1970) at or after `earliest`.
    ///
    /// Within one UTC-offset period (between two transitions) wall-clock time is UTC plus a constant, so the
    /// first matching wall-clock time at or after the period's local time is also its first matching instant.
    /// When that instant lies past the period's end, the transition decides: a match inside a spring-forward gap
    /// fires at the transition; otherwise the search goes on in the next period.
    private func nextInstant(onOrAfter earliest: Int, in timeZone: Zone) -> Int? {
        let hoursAreWild = !hours.isRestricted
        var lower = earliest
        var offset = timeZone.offset(at: lower).utcOffset
        // The horizon: `date`'s wall-clock time 8 years on (Feb 29 in a non-leap year becomes Feb 28).
        var horizon = CivilDateTime(localSeconds: earliest - 1 + offset)
        horizon.date.year += 8
        horizon.date.day = Swift.min(
            horizon.date.day, CivilDate.daysInMonth(year: horizon.date.year, month: horizon.date.month))
        let lastLocal = horizon.localSeconds
        // A spring-forward transition exactly at `earliest` (the search starts in the gap's last second before
        // it) is behind the period the loop starts in, so the loop never looks into its gap: do that here.
        let offsetBefore = timeZone.offset(at: earliest - 1).utcOffset
        if !hoursAreWild, offsetBefore < offset,
            let local = nextMatchingLocalTime(onOrAfter: earliest + offsetBefore, through: lastLocal),
            local < earliest + offset
        {
            return earliest
        }
        // Each round enters the next offset period or passes a run of repeated times; two transitions a year
        // for 8 years need a few dozen rounds. The bound only guards against a time zone that misbehaves.
        for _ in 0..<1000 {
            let periodEnd = timeZone.nextTransition(after: lower)
            guard let local = nextMatchingLocalTime(onOrAfter: lower + offset, through: lastLocal) else {
                return nil
            }
            let instant = local - offset
            if periodEnd.map({ instant < $0 }) ?? true {
                guard !hoursAreWild,
                    let firstPass = earlierOccurrence(ofLocal: local, at: instant, offset: offset, in: timeZone)
                else { return instant }
                // A second pass through repeated wall-clock times: each already fired in the first pass.
                // Skip the rest of the repeat at once when its end is known, else this one minute.
                var resume = instant + 1
                if let fallBack = timeZone.nextTransition(after: firstPass) {
                    let repeatEnd = fallBack + (local - firstPass) - offset
                    resume = Swift.max(resume, Swift.min(repeatEnd, periodEnd ?? repeatEnd))
                }
                lower = resume
                continue
            }
            guard let periodEnd else { return nil }  // unreachable: `instant < nil` counts as inside
            let nextOffset = timeZone.offset(at: periodEnd).utcOffset
            // Local times in [periodEnd + offset, periodEnd + nextOffset) do not exist.
            if !hoursAreWild, nextOffset > offset, local < periodEnd + nextOffset {
                return periodEnd
            }
            lower = periodEnd
            offset = nextOffset
        }
        return nil
    }

    /// The instant before `instant` that has the same wall-clock time `local`, if the time zone fell back over
    /// it. Like JavaScript's Temporal, it reads the offset in force a day before, which assumes at most one
    /// transition within that day (so it holds for DST rules and ordinary offset changes).
    private func earlierOccurrence(ofLocal local: Int, at instant: Int, offset: Int, in timeZone: Zone) -> Int? {
        let offsetBefore = timeZone.offset(at: local - 86_400).utcOffset
        guard offsetBefore > offset else { return nil }
        let candidate = local - offsetBefore
        guard candidate < instant, timeZone.offset(at: candidate).utcOffset == offsetBefore else {
            return nil
        }
        return candidate
    }

    /// The first wall-clock time at or after `local` (seconds of a local epoch) that the fields match, rounded up
    /// to a whole minute; nil when there is none up to `last`.
    private func nextMatchingLocalTime(onOrAfter local: Int, through last: Int) -> Int? {
        let minute = local >= 0 ? (local + 59) / 60 : -(-local / 60)
        let start = CivilDateTime(localSeconds: minute * 60)
        var (year, month, day) = (start.date.year, start.date.month, start.date.day)
        var (hour, minuteOfHour) = (start.hour, start.minute)
        let lastYear = CivilDateTime(localSeconds: last).date.year
        while year <= lastYear {
            guard let matchingMonth = Self.firstValue(in: months.allowed, from: month, through: 12) else {
                (year, month, day, hour, minuteOfHour) = (year + 1, 1, 1, 0, 0)
                continue
            }
            if matchingMonth != month { (month, day, hour, minuteOfHour) = (matchingMonth, 1, 0, 0) }
            let monthLength = CivilDate.daysInMonth(year: year, month: month)
            var weekday = CivilDate(year: year, month: month, day: Swift.min(day, monthLength)).weekday
            while day <= monthLength, !matchesDay(dayOfMonth: day, weekday: weekday) {
                (day, hour, minuteOfHour) = (day + 1, 0, 0)
                weekday = (weekday + 1) % 7
            }
            guard day <= monthLength else {
                (month, day, hour, minuteOfHour) = (month + 1, 1, 0, 0)
                if month > 12 { (year, month) = (year + 1, 1) }
                continue
            }
            guard let matchingHour = Self.firstValue(in: hours.allowed, from: hour, through: 23) else {
                (day, hour, minuteOfHour) = (day + 1, 0, 0)
                continue
            }
            if matchingHour != hour { (hour, minuteOfHour) = (matchingHour, 0) }
            guard let matchingMinute = Self.firstValue(in: minutes.allowed, from: minuteOfHour, through: 59) else {
                (hour, minuteOfHour) = (hour + 1, 0)
                if hour > 23 { (day, hour) = (day + 1, 0) }
                continue
            }
            let found = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: matchingMinute)
                .localSeconds
            return found <= last ? found : nil
        }
        return nil
    }

    /// The smallest value `v` in `from...through` whose bit is set in `mask`.
    private static func firstValue(in mask: UInt64, from value: Int, through last: Int) -> Int? {
        guard value <= last else { return nil }
        let bits = mask >> UInt64(value)
        guard bits != 0 else { return nil }
        let found = value + bits.trailingZeroBitCount
        return found <= last ? found : nil
    }
}
