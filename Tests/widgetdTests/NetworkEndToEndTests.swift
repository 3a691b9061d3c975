import Foundation
import Synchronization
import TestSupport
import Testing

/// The network kind in a running daemon, in a network namespace the test makes (`unshare -n`): a veth pair whose end
/// `v0` the test brings up and down and gives an address, with `ip` through `nsenter`. rtnetlink pushes each change;
/// the same namespace's i3status is asked what it sees.
@Suite("network through the daemon, in a namespace of its own", .spawnsDaemons)
struct NetworkEndToEndTests {
    static let config = """
        widgets:
          net:
            kind: network
            intent: {interface: v0, format: "{interface} {state} {ip}", format_down: "{interface} down"}
            output: [plain]

        """

    /// A namespace with the veth pair `v0`–`v1`, `v1` up (so `v0` has a carrier once up), `v0` down. Neither makes
    /// an IPv6 link-local address of its own (`addrgenmode none`): one would appear a moment after `v0` comes up,
    /// changing what `{ip}` shows and waking the listener once its address detection ends, at no step of the test's.
    static func namespace() async throws -> NetworkNamespace {
        let namespace = try NetworkNamespace()
        #expect(await namespace.waitUntilMade())
        try await namespace.ip("link add v0 type veth peer name v1")
        try await namespace.ip("link set v0 addrgenmode none")
        try await namespace.ip("link set v1 addrgenmode none")
        try await namespace.ip("link set v1 up")
        return namespace
    }

    /// How early a file's change time may read: the kernel stamps files from its coarse clock, updated once a tick
    /// (10 ms at the lowest common `HZ`, 100), while the test reads the precise one.
    static let coarseClockTick: Double = 10

    /// When `file` was last put in place (its change time), in milliseconds of the wall clock.
    static func placed(_ file: String) -> Double? {
        var info = stat()
        guard lstat(file, &info) == 0 else { return nil }
        return Double(info.st_ctim.tv_sec) * 1000 + Double(info.st_ctim.tv_nsec) / 1_000_000
    }

    static func wallClockMilliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
    }

    /// Runs `ip ARGUMENTS` in the namespace on a thread of its own, and returns the wall clock just before it started
    /// and just after it returned.
    static func timedIP(_ namespace: NetworkNamespace, _ arguments: String) async throws -> (
        started: Double, returned: Double
    ) {
        nonisolated(unsafe) let namespace = namespace
        return try await awaitingPrograms {
            let started = wallClockMilliseconds()
            try namespace.ipBlocking(arguments)
            return (started, wallClockMilliseconds())
        }
    }

    /// An i3status config of one `ethernet v0` module, printing plain lines (`output_format = none`).
    static let i3statusConfig = """
        general {
            output_format = "none"
            interval = 1
        }
        order += "ethernet v0"
        ethernet v0 {
            format_up = "v0 up %ip"
            format_down = "v0 down"
        }

        """

    /// The first line i3status prints for `ethernet v0` in the namespace.
    static func i3statusLine(in namespace: NetworkNamespace, directory: TemporaryDirectory) async throws -> String {
        let i3status = try requireExecutable("i3status", package: "i3status")
        let config = try directory.write("i3status-\(UUID().uuidString).conf", i3statusConfig)
        let outputPath = try directory.write("i3status-\(UUID().uuidString).out", "")
        let process = Process()
        let end = ProcessEnd(of: process)
        process.executableURL = URL(fileURLWithPath: namespace.launcher[0])
        process.arguments = Array(namespace.launcher.dropFirst()) + [i3status, "-c", config]
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run(thenClosing: output)
        // SIGKILL: a child of the test runner starts with SIGTERM blocked, which i3status keeps.
        defer {
            kill(process.processIdentifier, SIGKILL)
            end.waitBlocking()
        }
        var line = ""
        _ = await waitFor("i3status's first line", watching: directory.url.path) {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            line = text.split(separator: "\n").first.map(String.init) ?? ""
            return text.contains("\n")
        }
        return line
    }

    @Test func linkChangesShowWithin50MillisecondsAndAgreeWithI3status() async throws {
        let namespace = try await Self.namespace()
        let daemon = try DaemonUnderTest(config: Self.config, launcher: namespace.launcher)
        let file = daemon.output + "/net.plain"
        #expect(await daemon.waitFor("v0 down") { daemon.read("net.plain") == "v0 down\n" }, "\(daemon.log)")
        #expect(try await Self.i3statusLine(in: namespace, directory: daemon.directory) == "v0 down")

        // `ip` returns once the kernel has made the change; the widget's file must be in place 50 ms later. The
        // daemon shares two cores with the rest of the suite, so the file's own change time is compared, not when this
        // test looked.
        let up = try await Self.timedIP(namespace, "link set v0 up")
        #expect(await daemon.waitFor("v0 up") { daemon.read("net.plain") == "v0 up no IP\n" }, "\(daemon.log)")
        let upPlaced = try #require(Self.placed(file))
        #expect(upPlaced >= up.started - Self.coarseClockTick, "the file changed after ip started")
        #expect(upPlaced - up.returned <= 50, "put in place \(upPlaced - up.returned) ms after ip link set v0 up")

        try await namespace.ip("addr add 10.9.8.7/24 dev v0")
        #expect(await daemon.waitFor("the address") { daemon.read("net.plain") == "v0 up 10.9.8.7\n" }, "\(daemon.log)")
        #expect(try await Self.i3statusLine(in: namespace, directory: daemon.directory) == "v0 up 10.9.8.7")

        let down = try await Self.timedIP(namespace, "link set v0 down")
        #expect(await daemon.waitFor("v0 down again") { daemon.read("net.plain") == "v0 down\n" }, "\(daemon.log)")
        let downPlaced = try #require(Self.placed(file))
        #expect(downPlaced >= down.started - Self.coarseClockTick, "the file changed after ip started")
        #expect(
            downPlaced - down.returned <= 50, "put in place \(downPlaced - down.returned) ms after ip link set v0 down")
        #expect(try await Self.i3statusLine(in: namespace, directory: daemon.directory) == "v0 down")
    }

    @Test(.aheadInLine) func aClickShowsTheAddressAndAWidgetWithoutThroughputSleepsWhileNothingChanges() async throws {
        let namespace = try await Self.namespace()
        try await namespace.ip("link set v0 up")
        try await namespace.ip("addr add 192.0.2.5/24 dev v0")
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  net:\n    kind: network\n    intent: {interface: v0, format: \"{state}\"}\n"
                + "    output: [plain]\n",
            launcher: namespace.launcher)
        #expect(await daemon.waitFor("v0 up") { daemon.read("net.plain") == "up\n" }, "\(daemon.log)")
        #expect(try await daemon.cli(["click", "net", "--wait"]).status == 0)
        #expect(await daemon.waitFor("the address") { daemon.read("net.plain") == "v0 192.0.2.5\n" }, "\(daemon.log)")
        #expect(try await daemon.cli(["intent", "net", "toggle_address", "--wait"]).status == 0)
        #expect(await daemon.waitFor("the format again") { daemon.read("net.plain") == "up\n" }, "\(daemon.log)")

        // Nothing samples a format without throughput: with no link changing, the daemon does not wake. The pause is
        // the test, as in DaemonEndToEndTests' idle daemon.
        #expect(await daemon.waitFor("the trim") { daemon.log.contains("handing back start-up's mapped files") })
        #expect(
            try await waitForQuiet("the daemon to settle", window: .milliseconds(500)) { try daemon.contextSwitches() })
        await DaemonGate.giveBackTurn()  // an idle daemon needs no turn at the cores while the seconds pass
        let before = try daemon.contextSwitches()
        try await Task.sleep(for: .seconds(2))
        let after = try daemon.contextSwitches()
        #expect(after == before, "the daemon woke \(after - before) times in 2 s with no link changing")
    }

    @Test func anImportedEthernetModuleShowsWhatI3statusShows() async throws {
        let namespace = try await Self.namespace()
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let imported = try runWidgetd(["import", "i3status", try scratch.write("i3status.conf", Self.i3statusConfig)])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("  ethernet_v0:\n    kind: network\n"), "\(imported.stdout)")
        let config = imported.stdout.replacingOccurrences(
            of: "    kind: network\n", with: "    kind: network\n    output: [plain]\n")
        let daemon = try DaemonUnderTest(config: config, launcher: namespace.launcher)
        for change in ["", "link set v0 up", "addr add 198.51.100.4/24 dev v0", "link set v0 down"] {
            if !change.isEmpty { try await namespace.ip(change) }
            // i3status reads the kernel once, and may read it mid-change: a veth's carrier comes up a moment after
            // `link set v0 up`. So it is asked again until it and the daemon agree, for ten seconds at most.
            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            var theirs = ""
            var agreed = false
            while !agreed && ContinuousClock.now < deadline {
                theirs = try await Self.i3statusLine(in: namespace, directory: daemon.directory)
                let asked = ContinuousClock.now
                while !agreed && asked.duration(to: .now) < .seconds(1) {
                    agreed = daemon.read("ethernet_v0.plain") == theirs + "\n"
                    if !agreed { try await Task.sleep(for: .milliseconds(20)) }
                }
            }
            #expect(agreed, "after '\(change)': i3status \(theirs), ours \(daemon.read("ethernet_v0.plain") ?? "none")")
        }
    }

    /// Throughput is the one sampled value: `{up}` shows `--` until a second sample, then the bytes `v0` sent per
    /// second. 100 UDP datagrams of 1,000 bytes go out of `v0` to a neighbour entered by hand (no ARP, no reply).
    @Test(.aheadInLine) func throughputIsSampledAtTheIntervalAndCountsWhatTheInterfaceSent() async throws {
        let namespace = try await Self.namespace()
        try await namespace.ip("link set v0 up")
        try await namespace.ip("addr add 203.0.113.1/24 dev v0")
        try await namespace.ip("neigh add 203.0.113.9 lladdr 02:00:00:00:00:09 dev v0")
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  net:\n    kind: network\n    interval: 1s\n"
                + "    intent: {interface: v0, format: \"{up}\"}\n    output: [plain]\n",
            launcher: namespace.launcher)
        #expect(
            await daemon.waitFor("a rate of nothing sent") { daemon.read("net.plain") == "0.0 B/s\n" }, "\(daemon.log)")
        // Every value the widget shows, also one shown for a single second while this test was not run.
        let follower = try Follower(daemon, showing: "net")
        let python = try requireExecutable("python3", package: "python3")
        let send = """
            import socket
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            for _ in range(100): s.sendto(b"x" * 1000, ("203.0.113.9", 9))
            """
        let sent = try runProgram(namespace.nsenter, ["-t", String(namespace.pid), "-n", "--", python, "-c", send])
        #expect(sent.status == 0, "\(sent.stderr)")
        // 100 × (1,000 + 28 + 14) bytes, all in one interval or split over two: at least half of them in one.
        #expect(
            await daemon.waitFor("the bytes sent") {
                follower.lines.contains { $0.hasSuffix(" KiB/s") && (Double($0.split(separator: " ")[0]) ?? 0) >= 50 }
            }, "shown: \(follower.lines)")
        #expect(await daemon.waitFor("nothing sent again") { daemon.read("net.plain") == "0.0 B/s\n" })
    }
}
