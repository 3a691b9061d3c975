// swift-tools-version: 6.0
// widgetd: WidgetKit's timeline model for Linux status bars.
import Foundation
import PackageDescription

/// Release compile flags of every module the daemon links (docs/PERFORMANCE.md, "Design decisions behind the figures"):
/// - `-static-stdlib`: the runtime and FoundationEssentials inside the binary, so it runs without a Swift toolchain and
///   binds no symbols across shared libraries at start; each module is compiled for that link ("Idle RSS").
/// - `-function-sections`: a section per function, which the linker's `--symbol-ordering-file` (below) can move;
///   without it the swap and reload paths stay spread over many pages ("Swap cost").
let staticRuntimeInRelease: [SwiftSetting] = [
    .unsafeFlags(
        ["-static-stdlib", "-Xfrontend", "-function-sections"],
        .when(platforms: [.linux], configuration: .release))
]

/// Every module is optimized in debug builds too: the test suite starts the debug binary hundreds of times and runs the
/// pure code millions of times (cron against a minute-by-minute reference, every zone against Foundation and Python,
/// display width over every scalar), and unoptimized generic code does each several times slower; the suite's CPU is
/// what its wall time is made of on two cores (docs/PERFORMANCE.md, "Speed tricks and their rent"). To step through
/// a module in a debugger, take `optimizedInDebug` off its target for that build.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// libdbus's header directories, as `pkg-config --cflags dbus-1` names them: CDBus names no pkg-config package, whose
/// `-ldbus-1` would link libdbus into every start, where the music kind loads it with dlopen (`DBusLibrary`). The
/// second is the architecture's (Debian: `/usr/lib/x86_64-linux-gnu/dbus-1.0/include`), found where it is.
let dbusHeaders: [SwiftSetting] = {
    let libraries =
        ["/usr/lib64", "/usr/lib"]
        + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []).sorted().map { "/usr/lib/" + $0 }
    let architecture = libraries.map { $0 + "/dbus-1.0/include" }.first {
        FileManager.default.fileExists(atPath: $0 + "/dbus/dbus-arch-deps.h")
    }
    let directories = ["/usr/include/dbus-1.0"] + (architecture.map { [$0] } ?? [])
    return [.unsafeFlags(directories.flatMap { ["-Xcc", "-I" + $0] })]
}()

/// What every module of the executable is compiled with.
let moduleSettings = staticRuntimeInRelease + optimizedInDebug

/// The release daemon is linked without its symbol table and debug info (`--strip-all`), a large part of its size.
/// `WIDGETD_KEEP_SYMBOLS=1 swift build -c release` at the same commit links the same code with them, to resolve a
/// crash report's addresses (docs/development.md, "Decisions"). Debug builds keep everything.
let strippedInRelease: [LinkerSetting] =
    Context.environment["WIDGETD_KEEP_SYMBOLS"] == nil
    ? [.unsafeFlags(["-Xlinker", "--strip-all"], .when(platforms: [.linux], configuration: .release))] : []
/// How the release daemon is linked, for its idle memory and its wakes (docs/PERFORMANCE.md, "Idle RSS"):
/// - `-static-stdlib`: as above.
/// - lld with packed relative relocations (RELR, glibc ≥ 2.36): the loader reads a PIE's relocations at every start,
///   and packed they are a small fraction of `.rela.dyn`. gold, Swift's default linker here, has no RELR.
/// - `--symbol-ordering-file`: the functions the daemon runs (profiled by `scripts/generate-symbol-order.py`) first, a
///   second's swaps first of all, then a FIFO reload's, so the code a wake touches is on few pages ("Swap cost"). A
///   function not listed, and the toolchain's static libraries (no section per function), keep their place.
/// - `--no-export-dynamic` (the runtime's link arguments export every public symbol of ours): dynamic symbols nothing
///   looks up.
/// SwiftPM already passes `--gc-sections` in release.
let linkerDirectory = Context.packageDirectory + "/Linker"
/// The runtime linked in statically, by lld with packed relative relocations: how the executable is linked in both
/// configurations (`executableLinkSettings`).
let staticLinkFlags = ["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
let releaseLinkFlags =
    staticLinkFlags + [
        "-Xlinker", "--symbol-ordering-file=" + linkerDirectory + "/release-symbol-order.txt",
        "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "--no-export-dynamic",
    ]

/// How the executable is linked. In release, `releaseLinkFlags` and `strippedInRelease`, above. In debug builds too the
/// runtime and FoundationEssentials are linked in statically, since the tests start the binary hundreds of times
/// (docs/development.md, "The test suite"); a debug module does not name FoundationEssentials' own static libraries
/// (`_FoundationCShims`, `_FoundationCollections`) for the linker, so they are named here. Linker settings reach every
/// binary a target is linked into, so these sit on an executable target nothing depends on: on CLI or Daemon, the test
/// binary would get a second, static copy of the runtime.
let executableLinkSettings: [LinkerSetting] =
    [
        .unsafeFlags(releaseLinkFlags, .when(platforms: [.linux], configuration: .release)),
        .unsafeFlags(
            staticLinkFlags + ["-l_FoundationCShims", "-l_FoundationCollections"],
            .when(platforms: [.linux], configuration: .debug)),
    ] + strippedInRelease

let package = Package(
    name: "widgetd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "widgetd", targets: ["Main"])
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // libdbus's declarations only, for the music kind's one session-bus connection (MPRIS): it loads libdbus with
        // dlopen when its first widget connects (`DBusLibrary`), so nothing links it; the headers' directories come
        // through `dbusHeaders`.
        .systemLibrary(
            name: "CDBus",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // SQLite's declarations only: the store loads libsqlite3 with dlopen when it opens a connection and unloads it
        // when the last one closes (`SQLiteLibrary`), so nothing links it (no pkg-config `-lsqlite3`, no
        // `link` in the module map) and a daemon whose widgets never read the store never maps it.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libpulse's declarations only, for the sound kind: it loads libpulse with dlopen when its first widget
        // connects (`PulseConnection`), so nothing links it (no pkg-config `-lpulse`, no `link` in the module map) and
        // no other process maps it and the twenty libraries under it.
        .systemLibrary(
            name: "CPulse",
            providers: [.apt(["libpulse-dev"])]
        ),
        // Linux calls Glibc does not import: timerfd, signalfd, eventfd.
        .systemLibrary(name: "CLinux"),
        // Named time zones and strftime on our own civil-time code, with no Foundation, so no ICU.
        .target(name: "TimeZones", dependencies: ["Basics"], swiftSettings: moduleSettings),
        // Paths, trimming, threads, a condition and the one EINTR retry: what FoundationEssentials lacks.
        .target(name: "Basics", dependencies: ["CLinux"], swiftSettings: moduleSettings),
        // The core, one target per layer, so the compiler holds the architecture (README, "Architecture"; drawn in
        // docs/development.md, checked against every target's imports by PackageGraphTests).
        .target(name: "Text", swiftSettings: moduleSettings),
        .target(name: "YAML", dependencies: ["CYAML", "Text"], swiftSettings: moduleSettings),
        .target(name: "Diagnostics", dependencies: ["YAML", "Text"], swiftSettings: moduleSettings),
        // Timelines, cron and the engine: pure, no I/O, no kinds, output formats or YAML.
        .target(
            name: "Timelines", dependencies: ["Basics", "Text", "TimeZones"],
            swiftSettings: moduleSettings),
        .target(name: "Kind", dependencies: ["Timelines", "TimeZones"], swiftSettings: moduleSettings),
        .target(name: "System", dependencies: ["Basics", "CLinux"], swiftSettings: moduleSettings),
        // The output formats, their renderer, instance records and JSON: pure, no file or system call, so that what
        // only names a format or reads a record does not reach the file writer.
        .target(
            name: "Formats", dependencies: ["Basics", "Timelines", "TimeZones", "Text"],
            swiftSettings: moduleSettings),
        // The file writer: bar files and records swapped into place atomically, spares, the output directory.
        .target(name: "Output", dependencies: ["Basics", "Formats", "System"], swiftSettings: moduleSettings),
        .target(
            name: "Config",
            dependencies: ["Basics", "YAML", "Diagnostics", "Kind", "Timelines", "TimeZones", "Formats", "Text"],
            swiftSettings: moduleSettings),
        .target(
            name: "Control", dependencies: ["System", "Output", "Kind", "Text", "Timelines"],
            swiftSettings: moduleSettings),
        .target(name: "Store", dependencies: ["Basics", "CSQLite"], swiftSettings: moduleSettings),
        // The system kinds: sampled at an interval (cpu, memory, load, disk, uptime, temperature), or pushed by kobject
        // uevents (battery, backlight), rtnetlink (network), libpulse (sound) and MPRIS signals on the session bus
        // (music); behind the kind boundary like every other kind.
        .target(
            name: "SystemKinds", dependencies: ["Basics", "CDBus", "CPulse", "Kind", "TimeZones", "Timelines"],
            swiftSettings: moduleSettings),
        .target(
            name: "Providers",
            dependencies: [
                "Basics", "Config", "Formats", "Kind", "Output", "System", "Text", "Timelines", "TimeZones", "YAML",
                "Store", "CLinux", "SystemKinds",
            ],
            swiftSettings: moduleSettings),
        // What the daemon and the commands both need, and nothing else: the runtime directory's paths, the files the
        // daemon writes for the CLI (`daemon.json`, status files, records), log levels, exit codes, the daemon's
        // signals.
        .target(
            name: "Runtime",
            dependencies: [
                "Basics", "Config", "Control", "Formats", "Output", "System", "Text", "Timelines", "TimeZones",
            ],
            swiftSettings: moduleSettings
        ),
        // The daemon's loop and its parts. A library, so that the tests import it without linking what the executable
        // is linked with.
        .target(
            name: "Daemon",
            dependencies: [
                "Basics", "Config", "Control", "Diagnostics", "Formats", "Kind", "Output", "Providers", "Runtime",
                "Store", "System", "Text", "Timelines", "TimeZones", "YAML",
            ],
            swiftSettings: moduleSettings
        ),
        // The command line, its help, every command, the man pages and completions. It does not reach the Daemon
        // target: the commands talk to a running daemon through its files and the FIFO, and `widgetd run` starts one
        // through the `DaemonLauncher` that Main hands it. `-O` in release: `widgetd bar` and `show --follow` run its
        // code at every turn of the daemon, for as long as their bar runs (docs/PERFORMANCE.md, "The system kinds'
        // bar").
        .target(
            name: "CLI",
            dependencies: [
                "Basics", "Config", "Control", "Diagnostics", "Formats", "Kind", "Output", "Providers", "Runtime",
                "Store", "System", "Text", "Timelines", "TimeZones", "YAML",
            ],
            swiftSettings: moduleSettings
        ),
        // The `widgetd` executable: its entry point alone, and how it is linked; it hands the CLI the daemon to start.
        .executableTarget(
            name: "Main", dependencies: ["CLI", "Daemon"], swiftSettings: moduleSettings,
            linkerSettings: executableLinkSettings
        ),
        // The benchmark (docs/PERFORMANCE.md): drives the built widgetd binary as a separate process, so it depends on
        // none of its modules; CLinux's calls are for the swap floor's bare process (`SwapFloorBench`).
        .executableTarget(name: "widgetd-bench", dependencies: ["CLinux"]),
        // The tests' scratch directories: on a tmpfs where the machine has one (Tests/TestSupport/ScratchRoot.swift); the
        // plugin the tests run, for the daemon in the test's process and the built one; the threads of the tests that
        // block while they wait (WaitingThreads.swift).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "BasicsTests", dependencies: ["Basics", "TestSupport"]),
        // The core's tests, a target per layer. The engine's tests drive it with the config's
        // `WidgetInstance`, and the instance record's round trip goes through the file writer.
        .testTarget(name: "TextTests", dependencies: ["Text", "TestSupport"]),
        .testTarget(name: "YAMLTests", dependencies: ["YAML"]),
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics", "TestSupport"]),
        .testTarget(name: "KindTests", dependencies: ["Kind", "Timelines"]),
        .testTarget(name: "TimelinesTests", dependencies: ["Timelines", "Config", "Kind", "Text", "TimeZones"]),
        .testTarget(
            name: "FormatsTests", dependencies: ["Formats", "Output", "Text", "Timelines", "TimeZones", "TestSupport"]),
        .testTarget(name: "OutputTests", dependencies: ["Output", "Formats", "System", "Timelines", "TestSupport"]),
        .testTarget(name: "SystemTests", dependencies: ["System", "TestSupport"]),
        .testTarget(
            name: "ConfigTests",
            dependencies: [
                "Config", "Diagnostics", "Kind", "Text", "Timelines", "TimeZones", "YAML", "TestSupport",
            ]),
        .testTarget(name: "ControlTests", dependencies: ["Control", "System", "TestSupport"]),
        // The package itself: every target's imports against Package.swift, and the drawings of its graph.
        .testTarget(name: "PackageTests"),
        // Compares TimeZones with Foundation's TimeZone and with Python's zoneinfo and strftime.
        .testTarget(name: "TimeZonesTests", dependencies: ["TimeZones", "TestSupport"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "TestSupport"]),
        .testTarget(
            name: "ProvidersTests",
            dependencies: [
                "Providers", "Config", "Formats", "Kind", "Timelines", "TimeZones", "YAML", "Store", "TestSupport",
            ]),
        // The system kinds against a procfs/sysfs-shaped tree and against this machine's /proc, free, df and i3status.
        .testTarget(
            name: "SystemKindsTests",
            dependencies: ["SystemKinds", "Basics", "CPulse", "Kind", "TimeZones", "Timelines", "TestSupport"],
            // The tests compare with libpulse's own volume arithmetic, which they call directly.
            linkerSettings: [.linkedLibrary("pulse")]),
        // The program's tests, a target per module (issue 35, item 7): each type of the runtime, the daemon and the
        // command line, with no daemon process and no built binary.
        .testTarget(name: "RuntimeTests", dependencies: ["Runtime", "Formats", "Timelines", "TimeZones"]),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "Daemon", "CLI", "Runtime", "Config", "Control", "Formats", "Kind", "Output", "Providers", "System",
                "SystemKinds", "Timelines",
                "TimeZones", "TestSupport",
            ]),
        .testTarget(name: "CLITests", dependencies: ["CLI", "Control", "Store", "TimeZones", "TestSupport"]),
        // The program itself: the built `widgetd` run as the commands and as a daemon, with real FIFOs and real bars.
        // RealBars/Tools holds the waybar test's Wayland click helper, run by python3, not compiled.
        .testTarget(
            name: "widgetdTests",
            dependencies: [
                "CLI", "Control", "Formats", "Providers", "System", "TestSupport",
            ],
            exclude: ["RealBars/Tools", "MusicPlayer"]),
    ]
)

// Every module that imports SystemKinds, tests included, loads CDBus's clang module with it, and so needs libdbus's
// header directories; they are harmless to the rest, so every Swift target gets them.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + dbusHeaders
}
