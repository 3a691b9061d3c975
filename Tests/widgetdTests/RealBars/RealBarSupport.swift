import Foundation
import System
import TestSupport
import Testing

/// A child process started with `posix_spawn`, not Foundation's `Process`: several tests start bars at once, and
/// `Process` left a `setsid` child unreaped and a waiting test hung. Optionally in a session of its own
/// (`POSIX_SPAWN_SETSID`), so stopping it stops what it started too; its output goes to a log file.
final class SpawnedProcess {
    let pid: pid_t
    let logPath: String
    let newSession: Bool
    private let end: ChildEnd

    init(
        _ executable: String, _ arguments: [String], environment: [String: String], log: String,
        newSession: Bool = true
    ) throws {
        logPath = log
        self.newSession = newSession
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of this test process's: a descriptor another test has open for writing (a script it is
        // writing) would stay open in this child, and running that script would fail with ETXTBSY.
        ChildAttributes.closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals the test process blocks or ignores must not carry over to the bar.
        var signals = sigset_t()
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        // POSIX_SPAWN_SETSID (glibc 2.26), which Swift's Glibc module does not export.
        let setSession: Int32 = 0x80
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | (newSession ? setSession : 0)))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw MissingTool(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        end = ChildEnd(child)
    }

    deinit { stop() }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The raw wait status once the process has ended, else nil.
    func poll() -> Int32? {
        end.exitStatus
    }

    /// Waits up to `timeout` for the end; the raw wait status, or nil when it is still running.
    func wait(timeout: Duration) -> Int32? {
        end.wait(timeout: timeout)
    }

    /// SIGTERM (to the whole session's group when it has one), SIGKILL after a deadline; reaps it.
    func stop() {
        guard poll() == nil || newSession else { return }
        kill(newSession ? -pid : pid, SIGTERM)
        if wait(timeout: .seconds(3)) == nil {
            kill(newSession ? -pid : pid, SIGKILL)
            _ = wait(timeout: .seconds(3))
        }
        if newSession { kill(-pid, SIGKILL) }
    }
}

/// An X server of its own for one test (`Xvfb -displayfd`: the server picks a free display number and says which),
/// so the real-bar tests run in parallel with each other and with the rest.
final class VirtualDisplay {
    let server: SpawnedProcess
    let display: String
    let directory: TemporaryDirectory
    let width: Int
    let height: Int

    init(width: Int = 800, height: Int = 200) async throws {
        self.width = width
        self.height = height
        directory = try TemporaryDirectory()
        let log = directory.url.path + "/xvfb.out"
        let server = try SpawnedProcess(
            try requireExecutable("Xvfb", package: "xvfb"),
            // -noreset: an X server resets when its last client disconnects, closing a connection being made at
            // that moment; a test's first screenshot could be that client while a slow bar was still connecting
            // (polybar's "X connection error" in loaded runs).
            ["-displayfd", "1", "-noreset", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"],
            environment: [:],
            log: log, newSession: false)
        self.server = server
        var number: Int?
        let started = await waitFor("Xvfb to say its display number") {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            number = text.split(separator: "\n").compactMap { Int($0) }.first
            return number != nil || server.poll() != nil
        }
        guard started, let number else {
            throw MissingTool(description: "Xvfb did not start: \(server.log)")
        }
        display = ":\(number)"
    }

    deinit {
        server.stop()
        directory.remove()
    }

    /// Whether the X server still runs, and what it logged: for a failure's message, so that a bar that lost its X
    /// connection tells a server that died from one that never let it in.
    var diagnostics: String {
        let state = server.poll().map { "exited with status \($0)" } ?? "running"
        return "Xvfb on \(display): \(state); its log:\n\(server.log)"
    }

    /// The root window now (`import -window root`, ImageMagick).
    func screenshot() throws -> Screenshot {
        let data = try runCapturing(
            try requireExecutable("import", package: "imagemagick"), ["-window", "root", "-depth", "8", "ppm:-"],
            environment: ["DISPLAY": display])
        guard let shot = Screenshot(ppm: data) else { throw MissingTool(description: "import gave no PPM picture") }
        return shot
    }

    /// Saves the bar's strip of the screen, `height` rows from row `top`, the screen's width, as `<name>.png` in
    /// `$WIDGETD_SAVE_SCREENSHOTS` (doubled for the README, `readableCopy`), when that is set; with `force` (a failure,
    /// to look at), as taken in the temporary directory when it is not.
    func saveScreenshot(named name: String, height: Int = 40, top: Int = 0, force: Bool = false) throws {
        let chosen = ProcessInfo.processInfo.environment["WIDGETD_SAVE_SCREENSHOTS"].flatMap { $0.isEmpty ? nil : $0 }
        guard let directory = chosen ?? (force ? NSTemporaryDirectory() : nil) else { return }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = "\(directory)/\(name).png"
        _ = try runCapturing(
            try requireExecutable("import", package: "imagemagick"),
            ["-window", "root", "-crop", "\(width)x\(height)+0+\(top)", "+repage", "png:" + path],
            environment: ["DISPLAY": display])
        if chosen != nil { try readableCopy(of: path) }
    }

    /// Moves the pointer to (x, y) and clicks `button` (`xdotool`).
    func click(x: Int, y: Int, button: Int = 1) throws {
        _ = try runCapturing(
            try requireExecutable("xdotool", package: "xdotool"),
            ["mousemove", String(x), String(y), "click", String(button)], environment: ["DISPLAY": display])
    }
}

/// Runs `executable` to its end (at most 20 s) and returns what it wrote on stdout; throws with its stderr when it
/// fails.
func runCapturing(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> Data {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let out = directory.url.path + "/out"
    _ = FileManager.default.createFile(atPath: out, contents: nil)
    // stdout to its own file; the log (stderr) is the spawn's.
    let process = try SpawnedProcess(
        "/bin/sh", ["-c", "exec \"$0\" \"$@\" >'\(out)'", executable] + arguments,
        environment: environment.merging(["PATH": "/usr/bin:/bin"]) { old, _ in old },
        log: directory.url.path + "/err", newSession: false)
    guard let status = process.wait(timeout: .seconds(20)) else {
        process.stop()
        throw MissingTool(description: "\(executable) \(arguments.joined(separator: " ")) did not finish")
    }
    guard status == 0 else {
        throw MissingTool(
            description: "\(executable) \(arguments.joined(separator: " ")) failed (\(status)): \(process.log)")
    }
    return FileManager.default.contents(atPath: out) ?? Data()
}

/// Doubles the picture at `path` in place (pixel for pixel, so text stays sharp: a bar's 10-point font is small on a
/// README page) and writes it as a compact PNG.
func readableCopy(of path: String) throws {
    _ = try runCapturing(
        try requireExecutable("convert", package: "imagemagick"),
        [path, "-scale", "200%", "-strip", "-define", "png:compression-level=9", "png:" + path], environment: [:])
}

/// Takes screenshots (`take`) until more than `pixels` pixels of `area` differ from `before`: a change drawn there, such
/// as the star's other state or a to-do's marker and dimming. The last screenshot, or nil at the timeout.
func waitForChange(
    _ what: String, from before: Screenshot, in area: Screenshot.Region, pixels: Int = 10,
    timeout: Duration = .seconds(15), sourceLocation: SourceLocation = #_sourceLocation,
    take: () throws -> Screenshot
) async throws -> Screenshot? {
    var last: Screenshot?
    let found = try await waitFor(what, timeout: timeout, sourceLocation: sourceLocation) {
        let shot = try take()
        last = shot
        return shot.changedPixels(from: before, in: area) > pixels
    }
    return found ? last : nil
}

/// Takes screenshots until `condition` finds what it looks for in one, or the timeout passes; the last screenshot.
func waitForScreen(
    _ what: String, on display: VirtualDisplay, timeout: Duration = .seconds(30),
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: (Screenshot) -> Bool
) async throws -> Screenshot? {
    var last: Screenshot?
    let found = try await waitFor(what, timeout: timeout, sourceLocation: sourceLocation) {
        let shot = try display.screenshot()
        last = shot
        return condition(shot)
    }
    return found ? last : nil
}
