import Foundation
import SystemKinds
import Testing

/// The pure readings: each takes a file's text (or statvfs's numbers) and answers the values the widgets show.
@Suite("system readings")
struct ReadingTests {
    @Test func cpuUsageIsTheBusyShareOfTheTicksBetweenTwoSamples() throws {
        let first = try #require(
            CPUTimes(
                procStat:
                    "cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 50 0 50 350 50 0 0 0 0 0\ncpu1 50 0 50 350 50 0 0 0 0 0\nintr 1\n"
            ))
        // 100 more ticks: 60 busy overall; cpu0 all busy, cpu1 20 busy of 50 (10 of them iowait, counted idle).
        let second = try #require(
            CPUTimes(
                procStat:
                    "cpu  140 0 120 730 110 0 0 0 0 0\ncpu0 90 0 60 350 50 0 0 0 0 0\ncpu1 50 0 60 380 60 0 0 0 0 0\n"))
        let usage = CPUUsage(from: first, to: second)
        #expect(usage.overall == 60)
        #expect(usage.cores.map { $0.map { $0.rounded() } } == [100, 20])
        // The first sample of an instance: since boot, 200 busy of 1000.
        #expect(CPUUsage(from: nil, to: first).overall == 20)
    }

    @Test func cpuCountersThatGoBackShowUsageSinceBootNotANegativeNumber() throws {
        let later = try #require(CPUTimes(procStat: "cpu 10 0 10 80 0 0 0 0\n"))
        let earlier = try #require(CPUTimes(procStat: "cpu 100 0 100 800 0 0 0 0\n"))
        #expect(CPUUsage(from: earlier, to: later).overall == 20)
        #expect(CPUUsage(from: later, to: later).overall == 20, "no tick between the samples: since boot")
    }

    @Test func memoryIsCountedAsFreeAndI3statusCountIt() throws {
        let memory = try #require(
            MemoryInfo(
                procMeminfo: """
                    MemTotal:        1000000 kB
                    MemFree:          200000 kB
                    MemAvailable:     600000 kB
                    Buffers:           50000 kB
                    Cached:           250000 kB
                    SwapCached:            0 kB
                    Shmem:             10000 kB
                    SReclaimable:      40000 kB
                    SwapTotal:        500000 kB
                    SwapFree:         400000 kB
                    """))
        #expect(memory.total == 1_024_000_000)
        #expect(memory.used(.memavailable) == 400_000 * 1024)
        #expect(memory.used(.classical) == (1_000_000 - 200_000 - 50_000 - 290_000) * 1024)
        #expect(memory.swapUsed == 100_000 * 1024)
    }

    /// The numbers are the kernel's, up to 19 digits each: kilobytes past 2^64 bytes, and sums past it, are the most a
    /// `UInt64` holds, never an overflow trap.
    @Test func memoryNumbersPastTwoToTheSixtyFourBytesDoNotTrap() throws {
        let memory = try #require(
            MemoryInfo(
                procMeminfo: """
                    MemTotal:       9999999999999999999 kB
                    MemFree:        9999999999999999999 kB
                    Buffers:        9999999999999999999 kB
                    Cached:         9999999999999999999
                    SReclaimable:   9999999999999999999
                    """))
        #expect(memory.total == .max && memory.free == .max && memory.cached == .max)
        #expect(memory.available == .max && memory.used(.classical) == 0)
    }

    @Test func diskSpaceIsCountedAsDfCountsIt() {
        let space = DiskSpace(FileSystemBlocks(fragmentSize: 4096, blocks: 1000, free: 300, available: 250))
        #expect(space.total == 4_096_000)
        #expect(space.used == 700 * 4096)
        #expect(space.available == 250 * 4096)
        #expect(space.percentage(space.used) == 70)
        #expect(space.percentage(space.usedOfAvailable) == 75)
    }

    /// A FUSE file system answers `statvfs` as its program likes: counts whose bytes pass 2^64 show as the most a
    /// `UInt64` holds.
    @Test func diskSpacePastTwoToTheSixtyFourBytesDoesNotTrap() {
        let space = DiskSpace(
            FileSystemBlocks(fragmentSize: 1 << 20, blocks: .max, free: 1 << 50, available: UInt64(1) << 44))
        #expect(space.total == .max && space.used == .max && space.free == .max)
        #expect(space.available == .max && space.percentage(space.used) == 100)
    }

    @Test func loadAndUptimeReadTheirFiles() throws {
        let load = try #require(LoadAverage(procLoadavg: "0.52 1.58 2.59 1/467 12345\n"))
        #expect(load == LoadAverage(oneMinute: 0.52, fiveMinutes: 1.58, fifteenMinutes: 2.59))
        #expect(LoadAverage(procLoadavg: "") == nil)
        #expect(LoadAverage.onlineCores("0-3,6,8-9\n") == 7)
        #expect(LoadAverage.onlineCores("0\n") == 1)
        #expect(
            [LoadAverage.onlineCores(""), LoadAverage.onlineCores("3-1"), LoadAverage.onlineCores("a,1")] == [
                nil, nil, nil,
            ])
        let uptime = try #require(Uptime(procUptime: "273845.67 1000.00\n"))
        #expect(uptime.text == "3d 4h 4m")
        #expect(Uptime(seconds: 59).text == "0m")
        #expect(Uptime(seconds: 3600 * 5 + 60).text == "5h 1m")
    }

    @Test(arguments: [
        (UInt64(0), "0.0 B"), (1023, "1023.0 B"), (1024, "1.0 KiB"), (3_650_722_201, "3.4 GiB"),
        (UInt64(1) << 50, "1024.0 TiB"),
    ])
    func sizesAreWrittenAsI3statusWritesThem(bytes: UInt64, text: String) {
        #expect(ByteFormat().format(bytes) == text)
    }

    @Test func aFixedUnitAndDecimalsAndPrefixesAreKept() {
        #expect(ByteFormat(unit: "Mi", decimals: 0).format(3 << 30) == "3072 MiB")
        #expect(ByteFormat(prefixes: .decimal, decimals: 2).format(1_500_000) == "1.50 MB")
        #expect(ByteFormat(prefixes: .custom).format(1_572_864) == "1.5 MB")
        #expect(ByteFormat.percent(6.25) == "6.3%")
        // What the system says is not to be trusted: no number, or one too large to write, is `?`, not a trap.
        #expect([ByteFormat.fixed(.nan, decimals: 1), ByteFormat.fixed(-.infinity, decimals: 0)] == ["?", "?"])
        #expect(ByteFormat.fixed(1e300, decimals: 2) == "?" && ByteFormat.percent(.nan) == "?%")
    }

    @Test func placeholdersAreReplacedAndEverythingElseIsText() {
        let format = PlaceholderFormat("{used} / {total} {nope} {not a name} {")
        #expect(format.placeholders == ["used", "total", "nope"])
        #expect(format.render(["used": "1", "total": "2"]) == "1 / 2 {nope} {not a name} {")
        // Text of several bytes a character, beside, inside and after the braces, is text as written.
        let wide = PlaceholderFormat("♪ {volume}é{ü}{vol_1}🔊{")
        #expect(wide.placeholders == ["volume", "vol_1"])
        #expect(wide.render(["volume": "40%", "vol_1": "x"]) == "♪ 40%é{ü}x🔊{")
        #expect(
            PlaceholderFormat("").placeholders.isEmpty && PlaceholderFormat("{}{{a}}").render(["a": "1"]) == "{}{1}")
    }

    @Test(arguments: [(-1.0, "▁"), (0, "▁"), (0.5, "▅"), (0.93, "█"), (1, "█"), (7, "█")])
    func gaugeGlyphs(fraction: Double, glyph: Character) {
        #expect(GaugeGlyph.glyph(for: fraction) == glyph)
    }

    @Test func thresholdsAreReachedAtTheirValue() {
        let thresholds = Thresholds(warning: 80, critical: 95)
        #expect(thresholds.level(of: 79.9) == .normal)
        #expect(thresholds.level(of: 80) == .warning)
        #expect(thresholds.level(of: 95) == .critical)
        #expect(Thresholds(warning: nil, critical: nil).level(of: 1000) == .normal)
    }

    @Test func theHottestSensorOrTheNamedOneIsChosen() {
        let sensors = [
            TemperatureSensor(names: ["thermal_zone0", "acpitz"], celsius: 40),
            TemperatureSensor(names: ["coretemp", "Package id 0", "coretemp/Package id 0"], celsius: 61.5),
        ]
        #expect(TemperatureSensor.chosen(from: sensors, named: nil)?.celsius == 61.5)
        #expect(TemperatureSensor.chosen(from: sensors, named: "ACPITZ")?.celsius == 40)
        #expect(TemperatureSensor.chosen(from: sensors, named: "coretemp/Package id 0")?.celsius == 61.5)
        #expect(TemperatureSensor.chosen(from: sensors, named: "nvme") == nil)
        #expect(TemperatureSensor.chosen(from: [], named: nil) == nil)
        #expect(TemperatureSensor.celsius(fromMillidegrees: "45000\n") == 45)
        #expect(TemperatureSensor.celsius(fromMillidegrees: "") == nil)
    }
}
