import Foundation
import Glibc

/// Requests on the control FIFO, timed from the write to the file the daemon renames in answer.
enum RequestBench {
    enum Request: String {
        /// `reload NAME` on a `quotes` widget, which shows the next quote on every reload.
        case reload
        /// `click NAME 1` on a `motivations` widget: the `toggle-favorite` intent writes the store, the kind
        /// reloads, and the star comes or goes.
        case click
    }

    /// Latencies in seconds with `count` instances: for a reload, `count` quotes widgets, any of which is asked
    /// for; for a click, one motivations widget beside `count - 1` quotes widgets.
    static func latency(
        _ request: Request, count: Int, samples: Int, root: String, name: String? = nil, widgetd: String
    ) throws -> Summary {
        let scenario = try Scenario(root: root, name: name ?? "\(request.rawValue)-\(count)", widgetd: widgetd)
        let widgets: [String]
        let targets: [String]
        switch request {
        case .reload:
            widgets = (0..<count).map { Widgets.quotes("q\($0)") }
            targets = (0..<count).map { "q\($0)" }
        case .click:
            widgets = [Widgets.motivations("m0")] + (1..<max(count, 1)).map { Widgets.quotes("q\($0)") }
            targets = ["m0"]
            try addMotivation(scenario)
        }
        try scenario.writeConfig(widgets)
        return try scenario.withSettledDaemon(timelines: count, settle: 0.5) { _, watcher in
            try timeLines(
                fifo: scenario.fifo, watcher: watcher, targets: targets, samples: samples,
                line: { request == .reload ? "reload \($0)\n" : "click \($0) 1\n" }, logTail: { scenario.logTail })
        }
    }

    /// Writes `line(target)` to the FIFO `samples` times, a random target each time, and times each write to the
    /// rename of `<target>.plain` that answers it. Shared by the daemon's rows and the floor under them
    /// (`ReloadFloorBench`), so both are measured the same way.
    static func timeLines(
        fifo path: String, watcher: RenameWatcher, targets: [String], samples: Int, line: (String) -> String,
        logTail: () -> String
    ) throws -> Summary {
        let fifo = open(path, O_WRONLY | O_CLOEXEC)
        guard fifo >= 0 else { throw BenchError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fifo) }
        var generator = SystemRandomNumberGenerator()
        var latencies: [Double] = []
        for _ in 0..<samples {
            let target = targets.randomElement(using: &generator)!
            let line = line(target)
            let from = watcher.count
            let sent = realtime()
            guard line.withCString({ write(fifo, $0, strlen($0)) }) > 0 else {
                throw BenchError("writing the FIFO failed: \(String(cString: strerror(errno)))")
            }
            guard let (event, _) = watcher.waitFor(name: target + ".plain", from: from, timeout: 5) else {
                throw BenchError("\(line.dropLast()): no file renamed within 5 s; \(logTail())")
            }
            latencies.append(event.time - sent)
            // Let the daemon finish what follows the rename (status, kept entry) before the next request.
            sleepSeconds(0.01)
        }
        return Summary(latencies)
    }

    /// A click on one of `count` motivations widgets: the kind reloads, so every one of them is rewritten.
    /// Returns the times from the write to the last of the `count` files renamed.
    static func kindReload(count: Int, samples: Int, root: String, widgetd: String) throws -> Summary {
        let scenario = try Scenario(root: root, name: "click-kind-\(count)", widgetd: widgetd)
        try addMotivation(scenario)
        try scenario.writeConfig((0..<count).map { Widgets.motivations("m\($0)") })
        return try scenario.withSettledDaemon(timelines: count, settle: 0.5) { _, watcher in
            let fifo = open(scenario.fifo, O_WRONLY | O_CLOEXEC)
            guard fifo >= 0 else { throw BenchError("cannot open \(scenario.fifo)") }
            defer { close(fifo) }
            var times: [Double] = []
            for _ in 0..<samples {
                let from = watcher.count
                let sent = realtime()
                _ = "click m0 1\n".withCString { write(fifo, $0, strlen($0)) }
                var names = Set<String>()
                var next = from
                var last = sent
                let done = waitUntil(timeout: 30, interval: 0.005) {
                    let events = watcher.snapshot(from: next)
                    next += events.count
                    for event in events where event.name.hasSuffix(".plain") {
                        if names.insert(event.name).inserted { last = event.time }
                    }
                    return names.count >= count
                }
                guard done else { throw BenchError("kind reload: \(names.count) of \(count) files in 30 s") }
                times.append(last - sent)
                sleepSeconds(0.2)
            }
            return Summary(times)
        }
    }

    /// Stores one of the sample motivations (`widgetd motivations add`), so motivations widgets show a record.
    static func addMotivation(_ scenario: Scenario) throws {
        let result = try scenario.run(["motivations", "add"])
        guard result.status == 0 else { throw BenchError("widgetd motivations add failed: \(scenario.logTail)") }
    }
}

/// Nothing due: how often the daemon's threads are switched in.
struct IdleResult {
    var seconds: Double
    var switches: Int
    var cpu: Double
    var threads: Int
    var perMinute: Double { Double(switches) * 60 / seconds }
}

enum IdleBench {
    static func run(seconds: Double, root: String, widgetd: String) throws -> IdleResult {
        let scenario = try Scenario(root: root, name: "idle", widgetd: widgetd)
        try RequestBench.addMotivation(scenario)
        try scenario.writeConfig(
            (0..<50).map { Widgets.quotes("q\($0)") } + (0..<50).map { Widgets.motivations("m\($0)") })
        let daemon = try scenario.startDaemon()
        defer { daemon.stop() }
        try scenario.waitForTimelines(100)
        sleepSeconds(2)
        let switches0 = Proc.contextSwitches(daemon.pid)
        let cpu0 = Proc.scheduledSeconds(daemon.pid)
        sleepSeconds(seconds)
        let switches1 = Proc.contextSwitches(daemon.pid)
        let cpu1 = Proc.scheduledSeconds(daemon.pid)
        return IdleResult(
            seconds: seconds, switches: switches1 - switches0, cpu: cpu1 - cpu0, threads: Proc.threads(daemon.pid))
    }
}

/// A config of `count` widgets: `check`, then the daemon from spawn to every placeholder and every timeline.
struct StartupResult {
    var count: Int
    var check: Summary?
    /// Spawn → every `<name>.plain` present (placeholders painted): renamed or linked in, whole either way.
    var painted: Double
    /// Spawn → every `status/<name>.json` present (first timelines in).
    var timelines: Double
    var peakKilobytes: Int
    var residentKilobytes: Int
    /// Resident memory not backed by a file: the heap and stacks, without the shared libraries' pages.
    var anonymousKilobytes: Int
    /// The fewest open descriptors over a few readings (a write in progress holds one more for a moment).
    var descriptors: Int
    var threads: Int
}

enum StartupBench {
    static func run(
        count: Int, checkRuns: Int, root: String, name: String? = nil, widgetd: String, widgets: [String]? = nil
    ) throws -> StartupResult {
        let scenario = try Scenario(
            root: root, name: name ?? "startup-\(count)\(widgets == nil ? "" : "-custom")", widgetd: widgetd)
        try RequestBench.addMotivation(scenario)
        try scenario.writeConfig(widgets ?? Widgets.mix(count))
        var check: Summary?
        if checkRuns > 0 {
            var times: [Double] = []
            for _ in 0..<checkRuns {
                let result = try scenario.run(["check", "--config", scenario.config])
                guard result.status == 0 else { throw BenchError("widgetd check failed: \(scenario.logTail)") }
                times.append(result.seconds)
            }
            check = Summary(times)
        }

        // A first start links its new files in (IN_CREATE) where earlier daemons renamed them (IN_MOVED_TO).
        let watcher = try RenameWatcher([scenario.output, scenario.status], creations: true)
        defer { watcher.stop() }
        let spawned = realtime()
        let daemon = try scenario.startDaemon()
        defer { daemon.stop() }
        var painted = Set<String>()
        var arrived = Set<String>()
        var paintedAt = Double.nan
        var arrivedAt = Double.nan
        var next = 0
        let done = waitUntil(timeout: 300, interval: 0.01) {
            let events = watcher.snapshot(from: next)
            next += events.count
            for event in events {
                if event.directory == 0 {
                    guard event.name.hasSuffix(".plain") else { continue }
                    if painted.insert(event.name).inserted, painted.count == count { paintedAt = event.time }
                } else if event.name.hasSuffix(".json"), arrived.insert(event.name).inserted, arrived.count == count {
                    arrivedAt = event.time
                }
            }
            return painted.count >= count && arrived.count >= count
        }
        guard done else {
            throw BenchError(
                "start-up of \(count): \(painted.count) painted, \(arrived.count) timelines in 300 s; \(scenario.logTail)"
            )
        }
        sleepSeconds(1)
        return StartupResult(
            count: count, check: check, painted: paintedAt - spawned, timelines: arrivedAt - spawned,
            peakKilobytes: Proc.statusKilobytes(daemon.pid, "VmHWM") ?? 0,
            residentKilobytes: Proc.statusKilobytes(daemon.pid, "VmRSS") ?? 0,
            anonymousKilobytes: Proc.statusKilobytes(daemon.pid, "RssAnon") ?? 0,
            descriptors: (0..<5).map { _ in
                defer { sleepSeconds(0.05) }
                return Proc.descriptors(daemon.pid)
            }.min() ?? 0,
            threads: Proc.threads(daemon.pid))
    }
}
