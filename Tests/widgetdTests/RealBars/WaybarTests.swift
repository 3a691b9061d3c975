import Foundation
import Testing

/// The real waybar under a headless sway, with the shipped `contrib/waybar/config.jsonc` and `style.css`: the
/// motivation is on the screen and readable, and a click (through a virtual pointer) stars it.
///
/// sway refuses to run as root, so everything here (the daemon, the CLI, sway, waybar and its followers) runs as an
/// unprivileged user, `widgetd-bars`, which the test creates with `useradd` when it runs as root and it is missing.
@Suite("real bars: waybar under sway")
struct WaybarTests {
    static let user = "widgetd-bars"
    static let moduleBackground = Screenshot.RGB("#2b303b")
    static let favorite = Screenshot.RGB("#f1c40f")

    /// The test user's uid and gid, made first if need be.
    static func testUser() throws -> (uid: uid_t, gid: gid_t) {
        if getpwnam(user) == nil {
            guard geteuid() == 0 else {
                throw MissingTool(
                    description: "sway refuses root, and user \(user) is missing: run the tests as root once")
            }
            _ = try runCapturing(
                try requireExecutable("useradd", package: "passwd"),
                ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user], environment: [:])
        }
        guard let entry = getpwnam(user) else { throw MissingTool(description: "useradd made no user \(user)") }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// The modules of waybar's right side, left to right: runs of columns with the modules' own dark background.
    static func modules(in shot: Screenshot, strip: Screenshot.Region) -> [Screenshot.Region] {
        var modules: [Screenshot.Region] = []
        var current: Screenshot.Region?
        for x in 0..<shot.width {
            let column = Screenshot.Region(minX: x, minY: strip.minY, maxX: x, maxY: strip.maxY)
            if let hit = shot.bounds(of: moduleBackground, tolerance: 6, within: column) {
                if var run = current {
                    run.maxX = x
                    run.minY = min(run.minY, hit.minY)
                    run.maxY = max(run.maxY, hit.maxY)
                    current = run
                } else {
                    current = hit
                }
            } else if let run = current {
                modules.append(run)
                current = nil
            }
        }
        if let run = current { modules.append(run) }
        return modules.filter { $0.width > 8 }
    }

    @Test func theContribModuleShowsTheMotivationReadablyAndAClickStarsIt() throws {
        let sway = try requireExecutable("sway", package: "sway")
        _ = try requireExecutable("waybar", package: "waybar")
        let grim = try requireExecutable("grim", package: "grim")
        let python = try requireExecutable("python3", package: "python3")
        let setpriv = try requireExecutable("setpriv", package: "util-linux")
        let (uid, gid) = try Self.testUser()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.url.path
        chmod(root, 0o755)
        for sub in ["run", "state", "data", "home"] {
            try FileManager.default.createDirectory(
                atPath: root + "/" + sub, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let config = try directory.write(
            "widgets.yaml",
            "widgets:\n  motivation:\n    kind: motivations\n  todos:\n    kind: todos\n  clock:\n    kind: clock\n"
                + "    intent:\n      format: \"%Y\"\n")
        let swayConfig = try directory.write(
            "sway.conf",
            """
            output HEADLESS-1 resolution 800x200
            exec waybar -c \(packageRoot.path)/contrib/waybar/config.jsonc -s \(packageRoot.path)/contrib/waybar/style.css

            """)
        for path in [root, config, swayConfig] + ["run", "state", "data", "home"].map({ root + "/" + $0 }) {
            chown(path, uid, gid)
        }
        let environment = [
            "PATH": widgetdBinary.deletingLastPathComponent().path + ":/usr/bin:/bin", "LANG": "C.UTF-8",
            "HOME": root + "/home", "XDG_RUNTIME_DIR": root + "/run", "XDG_STATE_HOME": root + "/state",
            "XDG_DATA_HOME": root + "/data", "WIDGETD_CONFIG": config,
        ]
        let asUser = ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"]
        let daemon = try SpawnedProcess(
            setpriv, asUser + [widgetdBinary.path, "run", "--config", config], environment: environment,
            log: root + "/daemon.log")
        defer { daemon.stop() }
        let cli = { (arguments: [String]) in
            _ = try runCapturing(setpriv, asUser + [widgetdBinary.path] + arguments, environment: environment)
        }
        try cli(["motivations", "add", "No zero days."])
        let read = { (name: String) in try? String(contentsOfFile: root + "/run/widgetd/out/" + name, encoding: .utf8) }
        #expect(waitFor("the motivation") { read("motivation.plain") == "No zero days.\n" }, "\(daemon.log)")

        let compositor = try SpawnedProcess(
            setpriv, asUser + [sway, "-c", swayConfig],
            environment: environment.merging([
                "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
            ]) { $1 }, log: root + "/sway.log")
        defer { compositor.stop() }
        var socket: String?
        #expect(
            waitFor("sway's Wayland socket") {
                socket = try? FileManager.default.contentsOfDirectory(atPath: root + "/run").first {
                    $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock")
                }
                return socket != nil || compositor.poll() != nil
            })
        let wayland = try #require(socket, "sway did not start:\n\(compositor.log)")
        let display = ["XDG_RUNTIME_DIR": root + "/run", "WAYLAND_DISPLAY": wayland]
        let screenshot = { () throws -> Screenshot in
            let data = try runCapturing(grim, ["-t", "ppm", "-"], environment: display)
            guard let shot = Screenshot(ppm: data) else { throw MissingTool(description: "grim gave no PPM picture") }
            return shot
        }
        let strip = Screenshot.Region(minX: 0, minY: 0, maxX: 799, maxY: 40)
        var modules: [Screenshot.Region] = []
        var shot: Screenshot?
        #expect(
            try waitFor("waybar's three widgetd modules", timeout: .seconds(30)) {
                shot = try screenshot()
                modules = shot.map { Self.modules(in: $0, strip: strip) } ?? []
                return modules.count == 3
            }, "sway and waybar:\n\(compositor.log)")
        let motivation = try #require(modules.first)
        let first = try #require(shot)
        // White text on the module's own dark background, whatever the bar's.
        #expect(
            first.count(differingFrom: Self.moduleBackground, by: 150, in: motivation) > 40,
            "motivation at \(motivation)")
        if let saved = ProcessInfo.processInfo.environment["WIDGETD_SAVE_SCREENSHOTS"], !saved.isEmpty {
            try FileManager.default.createDirectory(atPath: saved, withIntermediateDirectories: true)
            _ = try runCapturing(grim, ["-g", "0,0 800x40", saved + "/waybar.png"], environment: display)
        }

        // sway has no input devices headless: a virtual pointer clicks.
        let clicker = packageRoot.path + "/Tests/widgetdTests/RealBars/Tools/wayland-click.py"
        _ = try runCapturing(
            python, [clicker, String(motivation.midX), String(motivation.midY), "800", "200"], environment: display)
        #expect(waitFor("the star") { read("motivation.plain") == "⭐ No zero days.\n" }, "\(compositor.log)")
        // The favourite's yellow text and underline, and the module as high as before (no border that pushes).
        var starred: Screenshot?
        #expect(
            try waitFor("the starred motivation on screen") {
                starred = try screenshot()
                return starred.map { Self.countNear(Self.favorite, in: $0, strip) > 20 } == true
            })
        let after = try #require(starred.map { Self.modules(in: $0, strip: strip) }?.first)
        #expect(after.minY == motivation.minY, "the module moved: \(motivation) → \(after)")
    }

    /// Pixels of `region` within 60 of `color`.
    static func countNear(_ color: Screenshot.RGB, in shot: Screenshot, _ region: Screenshot.Region) -> Int {
        var count = 0
        for y in region.minY...min(region.maxY, shot.height - 1) {
            for x in region.minX...min(region.maxX, shot.width - 1) where shot.pixel(x, y).distance(to: color) < 60 {
                count += 1
            }
        }
        return count
    }
}
