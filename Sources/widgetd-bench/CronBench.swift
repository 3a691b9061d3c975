import Foundation

/// `widgetd cron` as the measure of the cron engine's next-date search (the timing loop moved out of
/// CronNextDateTests): the wall time of `--count N` less that of `--count 1`, per fire time. The process start-up and
/// the zone's loading are in both runs, so the difference is the search and the printing of N − 1 dates.
enum CronBench {
    /// Weekday working hours every five minutes in a zone with DST: nights and weekends are skipped, both transitions
    /// of a year are crossed.
    static let expression = "*/5 9-17 * * mon-fri"
    static let zone = "Europe/Berlin"

    /// Microseconds per next date.
    static func run(count: Int, root: String, widgetd: String) throws -> Double {
        let scenario = try Scenario(root: root, name: "cron-\(count)-\(Int(monotonic() * 1000))", widgetd: widgetd)
        func time(_ count: Int) throws -> Double {
            let result = try scenario.run([
                "cron", expression, "--count", String(count), "--from", "2026-01-01T00:00:00Z", "--tz", zone,
            ])
            guard result.status == 0 else {
                throw BenchError("widgetd cron exited \(result.status): \(scenario.logTail)")
            }
            return result.seconds
        }
        let one = (0..<3).map { _ in (try? time(1)) ?? .nan }.min() ?? .nan
        let many = try time(count)
        return (many - one) / Double(count - 1) * 1e6
    }
}
