import Foundation
import Glibc
import TestSupport
import Testing

@testable import CLI

/// The commands whose `CommandDeclaration` says they read no config answer whatever state widgets.yaml is in: missing,
/// not YAML, or a FIFO whose writer never finishes, which a command that read it would wait `FileReading.pipeWait`
/// (5 s) for. Each runs the built binary with the config named by `$WIDGETD_CONFIG` (these commands take no
/// `--config`).
@Suite("commands that read no config", .startsFirst)
struct ConfigFreeCommandsTests {
    /// One such command as typed, and what it prints with no config anywhere.
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var output: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let i3statusConfig = "order += \"load\"\nload {\n  format = \"%1min\"\n}\n"

    static let cases: [Case] = [
        Case(arguments: ["--version"], output: "widgetd \(WidgetdMain.version)\n"),
        Case(arguments: ["help"], output: Help.text(for: nil) + "\n"),
        Case(arguments: ["help", "show"], output: Help.text(for: .show) + "\n"),
        Case(arguments: ["--help"], output: Help.text(for: nil) + "\n"),
        Case(arguments: ["reload", "--help"], output: Help.text(for: .reload) + "\n"),
        Case(
            arguments: ["cron", "0 9 * * *", "--count", "2", "--from", "2026-11-29T19:30:00Z", "--tz", "UTC"],
            output: "2026-11-30T09:00:00+00:00\n2026-12-01T09:00:00+00:00\n"),
        // The FILE is put in the test's directory; what it prints is compared with the missing config's run.
        Case(arguments: ["import", "i3status", "i3status.conf"], output: ""),
    ]

    /// Every command declared not to read the config has a case here.
    @Test func everyCommandThatReadsNoConfigIsTried() {
        let declared = CommandDeclaration.all.filter { !$0.readsConfig }.map(\.name.rawValue)
        let tried = Set(Self.cases.map { $0.arguments[0] })
        #expect(declared.count >= 3)
        for name in declared { #expect(tried.contains(name), "\(name) reads no config and is not tried here") }
    }

    @Test(arguments: cases)
    func answersWhateverStateTheConfigIsIn(_ item: Case) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.path
        let i3status = try directory.write("i3status.conf", Self.i3statusConfig)
        let arguments = item.arguments.map { $0 == "i3status.conf" ? i3status : $0 }
        let base = ["HOME": path, "XDG_CONFIG_HOME": path + "/config", "XDG_RUNTIME_DIR": path + "/run"]
        func run(config: String) async throws -> (result: ProcessResult, seconds: Double) {
            let environment = base.merging(["WIDGETD_CONFIG": config]) { $1 }
            let start = Date()
            let result = try await awaitingPrograms { try runWidgetd(arguments, environment: environment) }
            return (result, Date().timeIntervalSince(start))
        }
        let missing = try await run(config: path + "/no-such/widgets.yaml")
        #expect(missing.result.status == 0, "\(missing.result.stderr)")
        if !item.output.isEmpty { #expect(missing.result.stdout == item.output) }
        #expect(!missing.result.stdout.isEmpty)

        let invalid = try await run(config: try directory.write("invalid.yaml", "widgets: [\n  : {\n\t\"x"))
        #expect(invalid.result.status == 0, "not YAML: \(invalid.result.stderr)")
        #expect(invalid.result.stdout == missing.result.stdout)

        // A writer that holds the FIFO open and never finishes the file.
        let fifo = path + "/fifo.yaml"
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = try await StalledFIFOWriter(fifo: fifo)
        defer { writer.stop() }
        let stalled = try await run(config: fifo)
        #expect(stalled.result.status == 0, "a stalled FIFO: \(stalled.result.stderr)")
        #expect(stalled.result.stdout == missing.result.stdout)
        #expect(stalled.seconds < 5, "waited \(stalled.seconds) s: the config was read")
    }

    /// The app commands read the config only for the store its settings name, and only when no daemon runs; with no
    /// config anywhere they edit the default store (one the config cannot name is refused, `AppEndToEndTests`).
    @Test func appCommandsWorkWithoutAConfig() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.path
        let environment = [
            "HOME": path, "XDG_CONFIG_HOME": path + "/config", "XDG_RUNTIME_DIR": path + "/run",
            "XDG_DATA_HOME": path + "/data",
        ]
        for arguments in [
            ["motivations", "add", "Keep going"], ["motivations", "list"], ["todos", "add", "Pay rent"],
            ["todos", "list"], ["entities", "motivations"],
        ] {
            let result = try await awaitingPrograms { try runWidgetd(arguments, environment: environment) }
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(arguments)")
        }
        #expect(FileManager.default.fileExists(atPath: path + "/data/widgetd/store.sqlite"))
    }
}
