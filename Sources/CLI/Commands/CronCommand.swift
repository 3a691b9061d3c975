import FoundationEssentials
import Runtime
import Text
import TimeZones
import Timelines

/// `widgetd cron EXPR`: the next fire times, like `systemd-analyze calendar`.
enum CronCommand {
    static func run(expression: String, count: Int, from: String?, timeZoneName: String?, console: Console) -> Int32 {
        let zone: Zone
        if let timeZoneName {
            do {
                zone = try Zone.load(identifier: timeZoneName)
            } catch .unreadable(_, let reason) {
                console.err("widgetd: error: time zone '\(timeZoneName)' cannot be read: \(reason)")
                return ExitCode.failure
            } catch {
                let hint = Suggestion.didYouMean(timeZoneName, in: Zone.knownIdentifiers())
                // The hint ends in "?" when there is one; a full stop only when there is none.
                let message = "Unknown time zone '\(timeZoneName)'" + (hint.isEmpty ? "." : hint)
                console.report(UsageError(message, command: .cron))
                return ExitCode.usage
            }
        } else {
            zone = .current
        }
        var start = Date()
        if let from {
            guard let parsed = ISO8601Text.parse(from, defaultTimeZone: zone) else {
                console.report(
                    UsageError(
                        "'\(from)' is not an ISO 8601 time; write e.g. 2026-11-29T19:30:00+01:00.", command: .cron))
                return ExitCode.usage
            }
            start = parsed
        }
        let cron: CronExpression
        do {
            cron = try CronExpression(parsing: expression)
        } catch {
            console.err("widgetd: error: bad cron expression '\(expression)': \(error)")
            console.err("  \(expression)")
            console.err("  " + String(repeating: " ", count: error.offset) + "^")
            // A malformed argument is a usage error, like an unknown --tz, and ends as usage errors do.
            console.err("Usage: \(Help.usage(of: .cron))")
            console.err("See 'widgetd help cron'.")
            return ExitCode.usage
        }
        if let reason = cron.neverFiresReason {
            console.err("widgetd: error: '\(expression)' never fires: \(reason.text)")
            return ExitCode.failure
        }
        let dates = cron.nextDates(after: start, count: count, in: zone)
        for date in dates {
            console.out(ISO8601Text.format(date, in: zone))
        }
        if dates.count < count {
            console.err("widgetd: \(dates.isEmpty ? "error" : "note"): no further fire times within 8 years")
            return dates.isEmpty ? ExitCode.failure : ExitCode.success
        }
        return ExitCode.success
    }
}
