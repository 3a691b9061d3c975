import Foundation
import TestSupport
import Testing

/// A headless sway (`WLR_BACKENDS=headless WLR_RENDERER=pixman`) with a widgetd daemon beside it, all run as the
/// unprivileged user `widgetd-bars`: sway refuses root. The test creates the user with `useradd` when it runs as
/// root and the user is missing. Screenshots by `grim`; clicks by a wlr virtual pointer (`Tools/wayland-click.py`),
/// since a headless sway has no input device and `swaymsg seat - cursor press` reaches no client.
final class HeadlessSway {
    static let user = "widgetd-bars"

    let directory: TemporaryDirectory
    let root: String
    let config: String
    let daemon: SpawnedProcess
    private(set) var compositor: SpawnedProcess?
    private(set) var display: [String: String] = [:]
    /// The headless output's width in pixels, set by `start`; 200 pixels high.
    private(set) var width = 800
    private let setpriv: String
    private let asUser: [String]
    private let environment: [String: String]

    /// Makes the user's directories, writes `widgets` as widgets.yaml and starts the daemon as the user.
    init(widgets: String) throws {
        _ = try requireExecutable("sway", package: "sway")
        _ = try requireExecutable("grim", package: "grim")
        _ = try requireExecutable("python3", package: "python3")
        setpriv = try requireExecutable("setpriv", package: "util-linux")
        let (uid, gid) = try Self.unprivilegedUser()
        directory = try TemporaryDirectory()
        root = directory.url.path
        chmod(root, 0o755)
        for sub in ["run", "state", "data", "home"] {
            try FileManager.default.createDirectory(
                atPath: root + "/" + sub, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            chown(root + "/" + sub, uid, gid)
        }
        config = try directory.write("widgets.yaml", widgets)
        chown(root, uid, gid)
        chown(config, uid, gid)
        environment = [
            "PATH": widgetdBinary.deletingLastPathComponent().path + ":/usr/bin:/bin", "LANG": "C.UTF-8",
            "HOME": root + "/home", "XDG_RUNTIME_DIR": root + "/run", "XDG_STATE_HOME": root + "/state",
            "XDG_DATA_HOME": root + "/data", "WIDGETD_CONFIG": config,
        ]
        asUser = ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"]
        daemon = try SpawnedProcess(
            setpriv, asUser + [widgetdBinary.path, "run", "--config", config], environment: environment,
            log: root + "/daemon.log")
    }

    deinit {
        compositor?.stop()
        daemon.stop()
        directory.remove()
    }

    /// The unprivileged user sway runs as (it refuses root): its uid and gid, made first if need be.
    static func unprivilegedUser() throws -> (uid: uid_t, gid: gid_t) {
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

    /// Runs the widgetd CLI as the user.
    func cli(_ arguments: [String]) throws {
        _ = try runCapturing(setpriv, asUser + [widgetdBinary.path] + arguments, environment: environment)
    }

    /// A file the daemon wrote.
    func read(_ name: String) -> String? {
        try? String(contentsOfFile: root + "/run/widgetd/out/" + name, encoding: .utf8)
    }

    /// Starts sway on a `width`×200 output with `swayConfig` after the output line, and waits for its socket.
    func start(_ swayConfig: String, width: Int = 800) async throws {
        self.width = width
        // No Xwayland: the bars here are Wayland clients, and an X display of sway's own would take a display number
        // beside the X bars' Xvfb servers, which run at the same time.
        let path = try directory.write(
            "sway.conf", "xwayland disable\noutput HEADLESS-1 resolution \(width)x200\n" + swayConfig)
        chown(path, try Self.unprivilegedUser().uid, try Self.unprivilegedUser().gid)
        let sway = try requireExecutable("sway", package: "sway")
        let compositor = try SpawnedProcess(
            setpriv, asUser + [sway, "-c", path],
            environment: environment.merging([
                "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
            ]) { $1 }, log: root + "/sway.log")
        self.compositor = compositor
        var socket: String?
        _ = await waitFor("sway's Wayland socket") {
            socket = try? FileManager.default.contentsOfDirectory(atPath: root + "/run").first {
                $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock")
            }
            return socket != nil || compositor.poll() != nil
        }
        guard let socket else { throw MissingTool(description: "sway did not start:\n\(compositor.log)") }
        display = ["XDG_RUNTIME_DIR": root + "/run", "WAYLAND_DISPLAY": socket]
    }

    var log: String { compositor?.log ?? "" }

    func screenshot() throws -> Screenshot {
        let data = try runCapturing(
            try requireExecutable("grim", package: "grim"), ["-t", "ppm", "-"], environment: display)
        guard let shot = Screenshot(ppm: data) else { throw MissingTool(description: "grim gave no PPM picture") }
        return shot
    }

    /// Saves the top `height` rows as `<name>.png` in `$WIDGETD_SAVE_SCREENSHOTS`, doubled (`readableCopy`), when that
    /// is set.
    func saveScreenshot(named name: String, height: Int = 40) throws {
        guard let saved = ProcessInfo.processInfo.environment["WIDGETD_SAVE_SCREENSHOTS"], !saved.isEmpty else {
            return
        }
        try FileManager.default.createDirectory(atPath: saved, withIntermediateDirectories: true)
        _ = try runCapturing(
            try requireExecutable("grim", package: "grim"), ["-g", "0,0 \(width)x\(height)", saved + "/\(name).png"],
            environment: display)
        try readableCopy(of: saved + "/\(name).png")
    }

    /// The live processes of this session whose command line contains all of `words`: the test user's processes
    /// started with this session's own `XDG_RUNTIME_DIR`, which the daemon, sway and all that sway starts inherit,
    /// also once orphaned (sway's `exec` detaches its commands). Other tests and clones run the same user's sway at
    /// the same time, each with its own directory, and their processes do not count.
    func processes(with words: [String]) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let uid = (try? Self.unprivilegedUser().uid) ?? 0
        let session = Data("XDG_RUNTIME_DIR=\(root)/run".utf8)
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                status.split(separator: "\n").contains(where: { $0.hasPrefix("Uid:\t\(uid)\t") }),
                !status.contains("State:\tZ"),
                let raw = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                let environment = Self.startingEnvironment(of: pid),
                environment.split(separator: 0).contains(where: { $0.elementsEqual(session) })
            else { return nil }
            let arguments = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.allSatisfy(arguments.contains) ? pid : nil
        }
    }

    /// The environment `pid` was started with, NUL-separated; nil once it has gone. Another user's is readable only
    /// with CAP_SYS_PTRACE: without it no process would count, so that is recorded as an issue, not passed over.
    private static func startingEnvironment(of pid: pid_t) -> Data? {
        let path = "/proc/\(pid)/environ"
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            if error == EACCES || error == EPERM {
                Issue.record("cannot read \(path) to tell this test's processes: \(String(cString: strerror(error)))")
            }
            return nil
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readDataToEndOfFile()
    }

    /// Clicks at (x, y) with a virtual pointer.
    func click(x: Int, y: Int) throws {
        let clicker = packageRoot.path + "/Tests/widgetdTests/RealBars/Tools/wayland-click.py"
        _ = try runCapturing(
            try requireExecutable("python3", package: "python3"),
            [clicker, String(x), String(y), String(width), "200"],
            environment: display)
    }
}
