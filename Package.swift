// swift-tools-version: 6.0
// widgetd: WidgetKit's timeline model for Linux status bars.
import PackageDescription

/// A release daemon carries the Swift runtime and Foundation inside it: it runs on a machine without a Swift
/// toolchain, and it starts about 6 MB smaller (no relocations across whole shared libraries). Every module the
/// daemon links is compiled for it too, so that Foundation's static libraries bring their own dependencies.
let staticRuntimeInRelease: [SwiftSetting] = [
    .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))
]

/// The release daemon is linked without its symbol table and debug info (`--strip-all`, issue 15): they are a fifth of
/// its size, and `scripts/install` and `scripts/package-deb` stripped them anyway. A crash report then names addresses,
/// the image's load address and its build ID instead of functions; `WIDGETD_KEEP_SYMBOLS=1 swift build -c release` from
/// the same commit gives a binary to resolve them with (`addr2line -f -C -e`). Debug builds keep everything.
let strippedInRelease: [LinkerSetting] =
    Context.environment["WIDGETD_KEEP_SYMBOLS"] == nil
    ? [.unsafeFlags(["-Xlinker", "--strip-all"], .when(platforms: [.linux], configuration: .release))] : []

let package = Package(
    name: "widgetd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "widgetd", targets: ["widgetd"])
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Linux calls Glibc does not import: timerfd, signalfd, eventfd.
        .systemLibrary(name: "CLinux"),
        // Named time zones and strftime on our own civil-time code, with no Foundation (issue 15: no ICU).
        .target(name: "TimeZones", swiftSettings: staticRuntimeInRelease),
        // Paths, trimming, threads and a recursive lock: what Foundation gave that FoundationEssentials lacks (issue 15).
        .target(name: "Basics", dependencies: ["CLinux"], swiftSettings: staticRuntimeInRelease),
        .target(
            name: "Scheduler", dependencies: ["Basics", "CYAML", "CLinux"], swiftSettings: staticRuntimeInRelease),
        .target(name: "Store", dependencies: ["Basics", "CSQLite"], swiftSettings: staticRuntimeInRelease),
        .target(
            name: "Providers", dependencies: ["Basics", "Scheduler", "Store", "CLinux"],
            swiftSettings: staticRuntimeInRelease),
        .executableTarget(
            name: "widgetd", dependencies: ["Basics", "Scheduler", "Providers", "Store"],
            swiftSettings: staticRuntimeInRelease,
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
                + strippedInRelease
        ),
        // The benchmark (issue 6): drives the built widgetd binary as a separate process, so it depends on nothing.
        .executableTarget(name: "widgetd-bench"),
        .testTarget(name: "BasicsTests", dependencies: ["Basics"]),
        .testTarget(name: "SchedulerTests", dependencies: ["Scheduler"]),
        // Compares TimeZones with Foundation's TimeZone and the clock kind's current Strftime.
        .testTarget(name: "TimeZonesTests", dependencies: ["TimeZones", "Scheduler"]),
        .testTarget(name: "StoreTests", dependencies: ["Store"]),
        .testTarget(name: "ProvidersTests", dependencies: ["Providers", "Scheduler", "Store"]),
        // RealBars/Tools holds the waybar test's Wayland click helper, run by python3, not compiled.
        .testTarget(
            name: "widgetdTests", dependencies: ["widgetd", "Scheduler", "Providers"], exclude: ["RealBars/Tools"]),
    ]
)
