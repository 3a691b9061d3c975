import Foundation
import Kind
import SystemKinds
import TestSupport
import Testing
import Timelines

/// The two readings a format asks for only when it shows them: the CPU's frequency and a disk's I/O rate, on a
/// sysfs-shaped tree and against this machine's own files.
@Suite("cpu frequency and disk I/O rate")
struct FrequencyAndTrafficTests {
    @Test func frequencyIsTheMeanOfCpufreqOrElseOfCpuinfo() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write("/proc/stat", "cpu  50 0 0 50 0 0 0 0 0 0\n")
        try tree.write("/proc/cpuinfo", "processor\t: 0\ncpu MHz\t\t: 1000.000\nprocessor\t: 1\ncpu MHz\t\t: 2000.5\n")
        let format: [String: ParameterValue] = ["format": .string("{usage} at {frequency}")]
        #expect(try await shown(CPUKind(files: tree.files), format).text == "50% at 1.50 GHz", "cpuinfo's mean")
        try tree.write("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "2000000\n")
        try tree.write("/sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "3000000\n")
        try tree.write("/sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", "9999999\n")
        let shownNow = try await shown(CPUKind(files: tree.files), format)
        #expect(shownNow.text == "50% at 2.50 GHz", "cpufreq first, cores only")
        #expect(shownNow.tooltip?.contains("2.50 GHz") == true)
        // Without {frequency} nothing of it is read: the tooltip, which shows whatever was read, has none.
        let usageOnly = try await shown(CPUKind(files: tree.files))
        #expect(usageOnly.text == "50%" && usageOnly.tooltip?.contains("GHz") == false, "\(usageOnly)")
        try tree.write("/proc/cpuinfo", "processor\t: 0\n")
        try FileManager.default.removeItem(atPath: tree.root + "/sys")
        #expect(try await shown(CPUKind(files: tree.files), format).text == "50% at ?", "no source")
    }

    @Test func theMountHoldingAPathIsTheLongestMountPointAboveIt() {
        let mountinfo = """
            22 1 254:0 / / rw,relatime - ext4 /dev/vda rw
            30 22 0:25 / /run rw - tmpfs tmpfs rw
            31 22 8:17 / /home rw - ext4 /dev/sdb1 rw
            32 31 8:33 / /home/my\\040disk rw - ext4 /dev/sdc1 rw
            33 22 8:49 / /homework rw - ext4 /dev/sdd1 rw
            34 31 8:18 / /home rw - ext4 /dev/sdb2 rw
            """
        #expect(DiskTraffic.device(holding: "/", mountinfo: mountinfo) == "254:0")
        #expect(DiskTraffic.device(holding: "/usr/lib", mountinfo: mountinfo) == "254:0")
        #expect(DiskTraffic.device(holding: "/home/me", mountinfo: mountinfo) == "8:18", "the later mount over it")
        #expect(DiskTraffic.device(holding: "/home/my disk/x", mountinfo: mountinfo) == "8:33", "\\040 is a space")
        #expect(DiskTraffic.device(holding: "/homework", mountinfo: mountinfo) == "8:49", "not /home's")
        #expect(DiskTraffic.device(holding: "/run/user", mountinfo: mountinfo) == nil, "tmpfs: no block device")
        #expect(DiskTraffic.device(holding: "/", mountinfo: "garbage\n\n1 2\n") == nil)
    }

    @Test func ratesAreBytesPerSecondBetweenSamplesAndSinceBootAtFirst() throws {
        let line = "  1000 5 2000 300 400 6 8000 900 0 500 1200 0 0 0 0 0 0\n"
        let first = try #require(DiskTraffic(blockStat: line, uptime: 100))
        #expect(first.bytesRead == 2000 * 512 && first.bytesWritten == 8000 * 512)
        let sinceBoot = try #require(first.rates(since: nil))
        #expect(sinceBoot.read == 2000 * 512 / 100 && sinceBoot.write == 8000 * 512 / 100)
        let later = try #require(DiskTraffic(blockStat: "1 0 2100 0 1 0 8000 0 0 0 0", uptime: 110))
        let rates = try #require(later.rates(since: first))
        #expect(rates.read == 100 * 512 / 10 && rates.write == 0)
        #expect(first.rates(since: later) == nil, "counters that went back: a replaced device")
        #expect(later.rates(since: later) == nil, "no time passed")
        #expect(DiskTraffic(blockStat: "1 2 3", uptime: 1) == nil)
        // Counters near 2^64 over a hundredth of a second: a rate past UInt64 shows as the largest, not a trap.
        let huge = try #require(DiskTraffic(blockStat: "0 0 36028797018963967 0 0 0 0", uptime: 100.01))
        let base = DiskTraffic(bytesRead: 0, bytesWritten: 0, uptime: 100)
        #expect(huge.rates(since: base).map { $0.read > 1e20 } == true)
    }

    @Test func diskShowsItsDevicesRateOnlyWhenTheFormatAsks() async throws {
        let tree = try FakeSystemTree()
        defer { tree.remove() }
        try tree.write("/proc/self/mountinfo", "22 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n")
        try tree.write("/proc/uptime", "1024.00 2000.00\n")
        try tree.write("/sys/dev/block/254:0/stat", "0 0 2048 0 0 0 4096 0 0 0 0 0 0 0 0 0 0\n")
        let kind = DiskKind(files: tree.files)
        let format: [String: ParameterValue] = ["format": .string("r {read} w {write}")]
        #expect(try await shown(kind, format).text == "r 1.0 KiB/s w 2.0 KiB/s", "since boot at first")
        try tree.write("/proc/uptime", "1034.00 2000.00\n")
        try tree.write("/sys/dev/block/254:0/stat", "0 0 2048 0 0 0 65536 0 0 0 0 0 0 0 0 0 0\n")
        #expect(try await shown(kind, format).text == "r 0.0 B/s w 3.0 MiB/s", "the ten seconds' rate")
        // A device's counter near 2^64 a hundredth of a second later: the largest count, shown, not a trap.
        try tree.write("/proc/uptime", "1034.01 2000.00\n")
        try tree.write("/sys/dev/block/254:0/stat", "0 0 2048 0 0 0 36028797018963967 0 0 0 0 0 0 0 0 0 0\n")
        #expect(try await shown(kind, format).text == "r 0.0 B/s w 16777216.0 TiB/s")
        // A format without them reads none of the three files: a widget with no device shows no `?` either.
        try FileManager.default.removeItem(atPath: tree.root + "/sys")
        #expect(try await shown(kind, ["format": .string("{read}")]).text == "?", "no device: unknown")
        #expect(try await shown(kind, ["format": .string("{path}")]).text == "/")
    }

    @Test func thisMachinesFrequencyAndRootDiskTrafficMatchItsOwnFiles() async throws {
        let cpuinfo = try procFile("/proc/cpuinfo")
        let megahertz = cpuinfo.split(separator: "\n").filter { $0.hasPrefix("cpu MHz") }.compactMap {
            Double($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces))
        }
        let scaled = (0..<64).compactMap {
            try? String(
                contentsOfFile: "/sys/devices/system/cpu/cpu\($0)/cpufreq/scaling_cur_freq", encoding: .utf8)
        }
        if scaled.isEmpty, !megahertz.isEmpty {
            let mean = megahertz.reduce(0, +) / Double(megahertz.count)
            let text = try await shown(CPUKind(), ["format": .string("{frequency}")]).text
            let ours = try #require(Double(text.dropLast(" GHz".count)), "\(text)")
            // A frequency the governor moves between the two reads: a tenth of a GHz.
            #expect(abs(ours * 1000 - mean) <= 100, "ours \(text), /proc/cpuinfo's mean \(mean) MHz")
        }
        // The root file system's device, read since boot, against /proc/diskstats (the same counters) and uptime.
        let mountinfo = try procFile("/proc/self/mountinfo")
        guard let device = DiskTraffic.device(holding: "/", mountinfo: mountinfo) else { return }
        let parts = device.split(separator: ":")
        let diskstats = try procFile("/proc/diskstats")
        let fields = try #require(
            diskstats.split(separator: "\n").map { $0.split(separator: " ") }.first {
                $0.count > 9 && $0[0] == parts[0] && $0[1] == parts[1]
            })
        let uptime = try #require(
            Double(try String(contentsOfFile: "/proc/uptime", encoding: .utf8).split(separator: " ")[0]))
        let expected = Double(fields[5])! * 512 / uptime
        let text = try await shown(DiskKind(), ["format": .string("{read}"), "prefix_type": .enumCase("decimal")])
            .text
        let ours = try #require(bytesDecimal(text), "\(text)")
        // What the machine reads meanwhile moves the mean since boot by little; and one decimal of the unit.
        #expect(abs(ours - expected) <= max(0.05 * expected, 1000), "ours \(text), diskstats' \(expected) B/s")
    }

    /// `1.2 MB/s` in bytes per second.
    func bytesDecimal(_ text: String) -> Double? {
        let parts = text.dropLast(2).split(separator: " ")
        guard parts.count == 2, let number = Double(parts[0]) else { return nil }
        let powers = ["B": 0.0, "kB": 1, "MB": 2, "GB": 3, "TB": 4]
        return powers[String(parts[1])].map { number * pow(1000, $0) }
    }
}
