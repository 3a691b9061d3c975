import Foundation
import Glibc
import System
import TestSupport
import Testing

/// Moving from i3status: `widgetd import i3status` on i3status's own default config (Debian's /etc/i3status.conf,
/// embedded so the test does not follow the machine's copy), the result checked and run, and each translated module's
/// text compared with what i3status prints for the same config in the same test.
@Suite("i3status migration", .spawnsDaemons)
struct I3statusMigrationTests {
    static let defaultConfig = """
        # i3status configuration file.
        # see "man i3status" for documentation.

        # It is important that this file is edited as UTF-8.
        # The following line should contain a sharp s:
        # ß
        # If the above line is not correctly displayed, fix your editor first!

        general {
                colors = true
                interval = 5
        }

        order += "ipv6"
        order += "wireless _first_"
        order += "ethernet _first_"
        order += "battery all"
        order += "disk /"
        order += "load"
        order += "memory"
        order += "tztime local"

        wireless _first_ {
                format_up = "W: (%quality at %essid) %ip"
                format_down = "W: down"
        }

        ethernet _first_ {
                format_up = "E: %ip (%speed)"
                format_down = "E: down"
        }

        battery all {
                format = "%status %percentage %remaining"
        }

        disk "/" {
                format = "%avail"
        }

        load {
                format = "%1min"
        }

        memory {
                format = "%used | %available"
                threshold_degraded = "1G"
                format_degraded = "MEMORY < %available"
        }

        tztime local {
                format = "%Y-%m-%d %H:%M:%S"
        }

        """

    /// Sizes move between i3status's read and the daemon's by what other processes allocate or write meanwhile (the
    /// machine runs builds), plus 0.05 of a unit from i3status's one decimal.
    static let byteTolerance: Double = 512 * 1024 * 1024
    /// The 1-minute load moves by well under 1 in the seconds between the two reads, beyond what /proc/loadavg shows
    /// it moved meanwhile (added in the test).
    static let loadTolerance: Double = 1
    /// The clock: the daemon's file and i3status's line are read a few seconds apart at most.
    static let clockTolerance: TimeInterval = 15

    @Test func importOfTheDefaultConfigChecksRunsAndShowsWhatI3statusShows() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configPath = try directory.write("i3status.conf", Self.defaultConfig)
        let imported = try runWidgetd(["import", "i3status", configPath])
        #expect(imported.status == 0, "\(imported.stderr)")
        let yaml = imported.stdout
        for module in ["ipv6"] {
            #expect(yaml.contains("  # order += \"\(module)\": no widgetd kind for"), "\(module) is named as left out")
        }
        #expect(yaml.contains("  # memory: threshold_degraded = 1G is not translated"))
        #expect(yaml.contains("  # memory: format_degraded = MEMORY < %available is not translated"))
        #expect(
            yaml.contains(
                "bars:\n  i3status:\n    - wireless\n    - ethernet\n    - battery\n    - disk_root\n    - load\n"
                    + "    - memory\n    - clock_local\n"))
        #expect(
            yaml.contains(
                "  wireless:\n    kind: network\n    intent:\n      format: \"W: ({quality} at {ssid}) {ip}\""))
        #expect(yaml.contains("  # ethernet: %speed in format_up has no counterpart in the network kind"))
        #expect(yaml.contains("#     status_command exec widgetd bar --bar i3status"))

        let yamlPath = try directory.write("widgets.yaml", yaml)
        let check = try runWidgetd(["check", "--config", yamlPath])
        #expect(check.status == 0 && check.stdout.contains("7 widgets OK"), "\(check.stdout)\(check.stderr)")

        // i3status on the same config, its modules tab-separated so that memory's own '|' does not split it.
        let plainConfig = try directory.write(
            "i3status-none.conf",
            Self.defaultConfig.replacingOccurrences(
                of: "interval = 5\n", with: "interval = 5\n output_format = \"none\"\n separator = \"\\t\"\n"))
        let loadBefore = try oneMinuteLoad()
        // The other tests of the run start and end processes between the daemon's sample and i3status's: how far the
        // memory moved meanwhile, read every 10 ms, widens the memory's tolerance, as the load's movement does.
        let memoryMoves = MemoryMoves()
        let watching = Thread { memoryMoves.watch() }
        watching.start()
        let daemon = try DaemonUnderTest(config: yaml, reusing: directory)
        defer { daemon.stop() }
        // wireless and ethernet depend on this machine's links: NetworkEndToEndTests compares the imported ethernet
        // module with i3status's in a network namespace of its own.
        let names = ["disk_root", "load", "memory", "clock_local", "battery"]
        #expect(
            await daemon.waitFor("every widget's text on the bar") {
                names.allSatisfy { daemon.barTexts("i3status")[$0] != nil }
            })
        let theirs = try await firstI3statusLine(config: plainConfig).split(
            separator: "\t", omittingEmptySubsequences: false)
        try #require(theirs.count == 8, "i3status's eight modules: \(theirs)")
        let shown = daemon.barTexts("i3status")
        let memoryTolerance = Self.byteTolerance + memoryMoves.stop()
        let ours = names.map { shown[$0] ?? "" }
        // Whole, as i3status shows them: an imported widget names no family, so none is cut to one's width.
        #expect(!ours.contains { $0.hasSuffix("…") }, "\(ours)")

        let disk = (mine: sizeInBytes(ours[0]), i3status: sizeInBytes(theirs[4]))
        #expect(
            disk.mine != nil && disk.i3status != nil && abs(disk.mine! - disk.i3status!) <= Self.byteTolerance,
            "disk: ours \(ours[0]), i3status's \(theirs[4])")
        #expect(
            abs((Double(ours[1]) ?? -99) - (Double(theirs[5]) ?? 99))
                <= Self.loadTolerance + abs(try oneMinuteLoad() - loadBefore),
            "load: ours \(ours[1]), i3status's \(theirs[5])")
        // Below 1G available i3status writes format_degraded, which has no counterpart: then only the available size.
        let memoryParts = ours[2].components(separatedBy: " | ")
        if theirs[6].hasPrefix("MEMORY < ") {
            let available = sizeInBytes(theirs[6].dropFirst("MEMORY < ".count))
            #expect(abs((sizeInBytes(memoryParts.last ?? "") ?? -1e18) - (available ?? 1e18)) <= memoryTolerance)
        } else {
            let theirParts = theirs[6].components(separatedBy: " | ")
            #expect(memoryParts.count == 2 && theirParts.count == 2, "memory: ours \(ours[2]), i3status's \(theirs[6])")
            for (mine, other) in zip(memoryParts, theirParts) {
                #expect(
                    abs((sizeInBytes(mine) ?? -1e18) - (sizeInBytes(other) ?? 1e18)) <= memoryTolerance,
                    "memory: ours \(ours[2]), i3status's \(theirs[6])")
            }
        }
        // The same batteries (this machine has none: both say so in format_down's words).
        #expect(ours[4] == theirs[3], "battery: ours \(ours[4]), i3status's \(theirs[3])")
        let clock = DateFormatter()
        clock.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let times = (mine: clock.date(from: ours[3]), i3status: clock.date(from: String(theirs[7])))
        #expect(
            times.mine != nil && times.i3status != nil
                && abs(times.mine!.timeIntervalSince(times.i3status!)) <= Self.clockTolerance,
            "clock: ours \(ours[3]), i3status's \(theirs[7])")
    }

    /// /proc/loadavg's first field: how far the load moved between the daemon's read and i3status's widens the load's
    /// tolerance, as the two reads are seconds apart on a busy machine.
    func oneMinuteLoad() throws -> Double {
        let text = try String(contentsOfFile: "/proc/loadavg", encoding: .utf8)
        return try #require(text.split(separator: " ").first.flatMap { Double($0) })
    }

    /// `23.5 GiB` in bytes.
    func sizeInBytes(_ text: some StringProtocol) -> Double? {
        let parts = text.split(separator: " ")
        let powers = ["B": 0.0, "KiB": 1, "MiB": 2, "GiB": 3, "TiB": 4]
        guard parts.count == 2, let number = Double(parts[0]), let power = powers[String(parts[1])] else { return nil }
        return number * pow(1024, power)
    }

    /// i3status's first line for `config` (run under `stdbuf -oL`, since it buffers a pipe), then SIGKILL; the wait runs
    /// on a thread of its own (`awaitingPrograms`), so no test-pool thread polls meanwhile.
    func firstI3statusLine(config: String, deadline: TimeInterval = 15) async throws -> String {
        let i3status = try #require(
            ["/usr/bin/i3status", "/usr/local/bin/i3status"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "i3status is not installed (apt install i3status)")
        let line: String? = try await awaitingPrograms {
            let output = Pipe()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
            process.arguments = ["-oL", i3status, "-c", config]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer {
                process.killAndWait()
            }
            // Read as it comes: the pipe wakes the read at each write, and its end (i3status exited) ends it.
            let reading = output.fileHandleForReading
            let end = ContinuousClock.now.advanced(by: .seconds(deadline))
            var text = ""
            while true {
                if let newline = text.firstIndex(of: "\n") { return String(text[..<newline]) }
                let left = ContinuousClock.now.duration(to: end)
                guard left > .zero, try Poller.waitUntilReadable(reading.fileDescriptor, timeout: left) else {
                    return nil
                }
                let data = reading.availableData
                guard !data.isEmpty else { return nil }
                text += String(decoding: data, as: UTF8.self)
            }
        }
        return try #require(line, "i3status printed no line within \(deadline) s")
    }
}

/// The range MemAvailable (/proc/meminfo) moves over while `watch` runs, read every 10 ms until `stop`.
final class MemoryMoves: @unchecked Sendable {
    private let lock = NSLock()
    private var lowest = Double.infinity
    private var highest = -Double.infinity
    private var stopped = false

    func watch() {
        while !lock.withLock({ stopped }) {
            if let bytes = Self.available() {
                lock.withLock {
                    lowest = min(lowest, bytes)
                    highest = max(highest, bytes)
                }
            }
            // Sampled, not waited for: nothing tells when MemAvailable moves, so its range is read every 10 ms for as
            // long as the readings it measures take.
            usleep(10_000)
        }
    }

    /// Stops the watch; how far the memory moved, in bytes.
    func stop() -> Double {
        lock.withLock {
            stopped = true
            return highest >= lowest ? highest - lowest : 0
        }
    }

    static func available() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return nil }
        return kilobytes * 1024
    }
}
