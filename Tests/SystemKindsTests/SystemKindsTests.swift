import Foundation
import Kind
import SystemKinds
import Testing
import Timelines

/// The kinds on a procfs/sysfs-shaped tree: what each shows, in which family, with which colour and state, and when
/// it asks again.
@Suite("system kinds on a sysfs-shaped tree")
struct SystemKindsTests {
    @Test func cpuShowsUsageSinceBootFirstThenTheDeltaOfTheInterval() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write(
            "/proc/stat", "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\ncpu1 50 0 50 400 0 0 0 0 0 0\n"
        )
        let kind = CPUKind(files: tree.files)
        let format: [String: ParameterValue] = ["format": .string("{usage} {cpu0} {cpu1}")]
        let now = Date(timeIntervalSince1970: 1_000_000)
        let first = try await kind.timeline(for: configuration(kind, format), in: context(at: now))
        #expect(first.entries.map(\.content.text) == ["20% 20% 20%"])
        #expect(first.policy == .after(now.addingTimeInterval(5)), "i3status's 5 s")
        try tree.write(
            "/proc/stat",
            "cpu  190 0 100 810 0 0 0 0 0 0\ncpu0 100 0 50 400 0 0 0 0 0 0\ncpu1 90 0 50 410 0 0 0 0 0 0\n")
        // A preview of another instance neither takes nor disturbs this one's sample.
        _ = try await kind.snapshot(for: configuration(kind, format), in: context("other"))
        let second = try await shown(kind, format)
        #expect(second.text == "90% 100% 80%")
        #expect(second.classes == ["warning"], "the default warning is i3status's 90")
        // No tick since: the interval's usage still holds (not usage since boot), and stays the next one's base.
        #expect(try await shown(kind, format).text == "90% 100% 80%")
        try tree.write(
            "/proc/stat",
            "cpu  190 0 100 910 0 0 0 0 0 0\ncpu0 100 0 50 450 0 0 0 0 0 0\ncpu1 90 0 50 460 0 0 0 0 0 0\n")
        #expect(try await shown(kind, format).text == "00% 00% 00%")
    }

    /// Widgets sampled at one interval read at the same instant whenever each started, as i3status's interval does:
    /// the next sample waits for the interval's boundary on the wall clock, not an interval after the last.
    @Test func theNextSampleIsAtTheIntervalsBoundaryOnTheWallClock() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write("/proc/loadavg", "0.50 0.40 0.30 1/100 200\n")
        let kind = LoadKind(files: tree.files)
        for (started, next) in [(1_000_002.3, 1_000_005.0), (1_000_004.99, 1_000_005.0), (1_000_005.0, 1_000_010.0)] {
            let now = Date(timeIntervalSince1970: started)
            let timeline = try await kind.timeline(for: configuration(kind), in: context(at: now))
            #expect(timeline.entries.map(\.date) == [now], "the first sample at once")
            #expect(timeline.policy == .after(Date(timeIntervalSince1970: next)), "started at \(started)")
        }
    }

    @Test func cpuThresholdsSetColourUrgencyAndClass() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write("/proc/stat", "cpu  96 0 0 4 0 0 0 0 0 0\n")
        let kind = CPUKind(files: tree.files)
        let critical = try await shown(kind)
        #expect(critical.text == "96%")
        #expect(critical.state == .urgent && critical.foreground == Thresholds.criticalColor)
        #expect(critical.classes == ["critical"] && critical.percentage == 96)
        let warning = try await shown(CPUKind(files: tree.files), ["warning": .int(50), "critical": .int(100)])
        #expect(
            warning.state == .normal && warning.foreground == Thresholds.warningColor && warning.classes == ["warning"])
        let calm = try await shown(CPUKind(files: tree.files), ["warning": .int(97), "critical": .int(99)])
        #expect(calm.state == .normal && calm.foreground == nil && calm.classes.isEmpty)
    }

    @Test func theSmallFamiliesShowAGaugeGlyphBeforeTheText() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write("/proc/stat", "cpu  50 0 0 50 0 0 0 0 0 0\n")
        #expect(try await shown(CPUKind(files: tree.files), family: .systemSmall).text == "▅ 50%")
        #expect(try await shown(CPUKind(files: tree.files), family: .accessoryCircular).shortText == "▅")
        #expect(try await shown(CPUKind(files: tree.files), family: .systemMedium).text == "50%")
        #expect(try await shown(CPUKind(files: tree.files), family: .accessoryInline).text == "50%")
    }

    @Test func memoryShowsItsPlaceholdersInTheChosenUnit() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write(
            "/proc/meminfo",
            "MemTotal: 4194304 kB\nMemFree: 1048576 kB\nMemAvailable: 3145728 kB\nBuffers: 0 kB\nCached: 1048576 kB\n"
                + "Shmem: 0 kB\nSwapTotal: 2097152 kB\nSwapFree: 1048576 kB\n")
        let kind = MemoryKind(files: tree.files)
        #expect(try await shown(kind).text == "1.0 GiB / 4.0 GiB")
        let all = try await shown(
            kind,
            [
                "format": .string(
                    "{used} {available} {percentage_used} {swap_used}/{swap_total} {percentage_swap_used}"),
                "unit": .enumCase("Mi"), "decimals": .int(0), "critical": .int(25),
            ])
        #expect(all.text == "1024 MiB 3072 MiB 25.0% 1024 MiB/2048 MiB 50.0%")
        #expect(all.state == .urgent && all.percentage == 25)
        let classical = try await shown(kind, ["used_method": .enumCase("classical"), "format": .string("{used}")])
        #expect(classical.text == "2.0 GiB")
    }

    @Test func loadTakesDecimalThresholdsAndAGaugePerCore() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write("/proc/loadavg", "1.50 0.75 0.25 2/300 4242\n")
        try tree.write("/sys/devices/system/cpu/online", "0-1\n")
        let kind = LoadKind(files: tree.files)
        let shownLoad = try await shown(
            kind, ["format": .string("{1min} {5min} {15min}"), "warning": .string("1.5")], family: .systemSmall)
        #expect(shownLoad.text == "▆ 1.50 0.75 0.25")
        #expect(shownLoad.classes == ["warning"] && shownLoad.percentage == 75)
        await #expect(throws: IntentError.self) {
            try await kind.timeline(for: configuration(kind, ["critical": .string("high")]), in: context())
        }
        #expect(
            kind.referenceProblems(in: configuration(kind, ["critical": .string("high")])).map(\.parameter) == [
                "critical"
            ])
    }

    @Test func diskShowsTheSpaceOfAPathAndSaysWhenItIsNotThere() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        let kind = DiskKind(files: tree.files)
        let mounted = try await shown(kind, ["format": .string("{path} {percentage_used}")])
        #expect(mounted.text.hasPrefix("/ ") && mounted.text.hasSuffix("%"))
        let now = Date(timeIntervalSince1970: 1_000_000)
        let missing = try await kind.timeline(
            for: configuration(kind, ["path": .string("/media/usb")]), in: context(at: now))
        #expect(missing.entries.map(\.content.text) == ["/media/usb: not mounted"])
        #expect(missing.entries[0].content.state == .normal, "a state, not an error")
        #expect(missing.policy == .after(Date(timeIntervalSince1970: 1_000_020)), "the next 30 s boundary")
    }

    @Test func temperatureShowsTheHottestOrTheNamedSensor() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write("/sys/class/thermal/thermal_zone0/type", "acpitz\n")
        try tree.write("/sys/class/thermal/thermal_zone0/temp", "41000\n")
        try tree.write("/sys/class/hwmon/hwmon1/name", "coretemp\n")
        try tree.write("/sys/class/hwmon/hwmon1/temp1_input", "77500\n")
        try tree.write("/sys/class/hwmon/hwmon1/temp1_label", "Package id 0\n")
        let kind = TemperatureKind(files: tree.files)
        let hottest = try await shown(kind, ["format": .string("{sensor} {degrees}°C")])
        #expect(hottest.text == "Package id 0 77°C", "77.5 °C cut to whole degrees, as i3status cuts them")
        #expect(hottest.state == .urgent, "above i3status's default 75 °C")
        #expect(try await shown(kind, ["sensor": .string("acpitz")]).text == "41°C")
        let unknown = try await shown(kind, ["sensor": .string("nvme")])
        #expect(unknown.text == "no sensor" && unknown.tooltip?.contains("acpitz") == true)
    }

    @Test func aMachineWithoutSensorsShowsNoSensorAndSamplesAgainQuietly() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        let kind = TemperatureKind(files: tree.files)
        let now = Date(timeIntervalSince1970: 1_000_000)
        let timeline = try await kind.timeline(for: configuration(kind), in: context(at: now))
        #expect(timeline.entries.map(\.content.text) == ["no sensor"])
        #expect(timeline.entries[0].content.state == .normal && timeline.entries[0].content.classes == ["absent"])
        #expect(timeline.policy == .after(now.addingTimeInterval(5)))
    }

    @Test func uptimeIsATimelineOfTheComingMinutesNotASamplePerSecond() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write("/proc/uptime", "3599.50 100.00\n")
        let kind = UptimeKind(files: tree.files)
        let now = Date(timeIntervalSince1970: 1_000_000)
        let timeline = try await kind.timeline(for: configuration(kind), in: context(at: now))
        #expect(timeline.policy == .atEnd)
        #expect(timeline.entries.count == 61)
        #expect(timeline.entries[0].content.text == "up 59m")
        #expect(timeline.entries[1].date == now.addingTimeInterval(0.5))
        #expect(timeline.entries[1].content.text == "up 1h 0m")
        #expect(timeline.entries[60].date == now.addingTimeInterval(0.5 + 59 * 60))
        #expect(timeline.entries[60].content.text == "up 1h 59m")
    }

    @Test func checkWarnsOfUnknownPlaceholders() {
        let kind = MemoryKind(files: SystemFiles(root: "/nonexistent"))
        let problems = kind.referenceProblems(in: configuration(kind, ["format": .string("{used} {avail}")]))
        #expect(
            problems.map(\.message) == [
                "unknown placeholder '{avail}' in 'format', which shows as typed; known: "
                    + "used, free, available, total, shared, buffers, cached, percentage_used, percentage_free, "
                    + "percentage_available, percentage_shared, swap_used, swap_free, swap_total, percentage_swap_used, "
                    + "percentage_swap_free"
            ])
        let cpu = CPUKind(files: SystemFiles(root: "/nonexistent"))
        #expect(cpu.referenceProblems(in: configuration(cpu, ["format": .string("{usage} {cpu12}")])).isEmpty)
        #expect(cpu.referenceProblems(in: configuration(cpu, ["format": .string("{cpu}")])).count == 1)
    }

    @Test func anUnreadableProcIsTheWidgetsErrorNamingTheFile() async throws {
        let kind = CPUKind(files: SystemFiles(root: "/nonexistent"))
        await #expect(throws: IntentError("cannot read CPU times from /nonexistent/proc/stat")) {
            try await kind.timeline(for: configuration(kind), in: context())
        }
    }
}
