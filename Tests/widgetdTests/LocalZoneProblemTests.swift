import Foundation
import Testing

/// A `TZ` that names no zone makes local times UTC, as glibc reads it: the daemon's log and `doctor` say so, where
/// they said nothing and a clock was hours off.
@Suite("a local time zone that cannot be read", .spawnsDaemons)
struct LocalZoneProblemTests {
    @Test func theDaemonsLogAndDoctorNameIt() async throws {
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  quote:\n    kind: quotes\n", extraEnvironment: ["TZ": "Bogus/Zone"])
        let expected = "the local time zone: TZ=Bogus/Zone: no time zone named \"Bogus/Zone\"; local times are in UTC"
        #expect(await daemon.waitFor("the warning") { daemon.log.contains(expected) }, "\(daemon.log)")
        let doctor = try runWidgetd(["doctor"], environment: daemon.environment.merging(["TZ": "Bogus/Zone"]) { $1 })
        #expect(doctor.stdout.contains(expected), "\(doctor.stdout)")
        // A zone that reads, or a POSIX rule, is no problem.
        let fine = try runWidgetd(["doctor"], environment: daemon.environment.merging(["TZ": "EST5EDT"]) { $1 })
        #expect(!fine.stdout.contains("the local time zone"), "\(fine.stdout)")
    }
}
