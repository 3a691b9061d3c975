import Foundation
import Testing

/// Issue 15: the daemon links no ICU. Every file of the daemon's modules imports FoundationEssentials (or no
/// Foundation at all), never `Foundation`, whose static library brings FoundationInternationalization and ICU's 34 MB
/// of data into the binary.
@Suite("no Foundation, so no ICU, in the daemon's modules")
struct FoundationImportTests {
    /// Files that still import Foundation for time zones, calendars and date formatting: the `tz` branch of issue 15
    /// replaces those with Sources/TimeZones. By file name, so that the split of Scheduler into targets moves them
    /// freely. LEAD: empty this list when that branch is merged; the test must then pass with no exception.
    static let timeZoneFilesLeftToTheTZBranch: Set<String> = [
        "ConfigValidator+Widget.swift", "Configuration.swift", "CronExpression+NextDate.swift", "ISO8601Text.swift",
        "WidgetKind.swift", "InstanceRecord.swift", "Strftime.swift", "TimelineSequence.swift",
        "ZoneAbbreviation.swift", "ClockKind.swift", "ExecOutput.swift", "MotivationsKind.swift", "AppCommands.swift",
        "CronCommand.swift", "Daemon+Presence.swift", "Daemon.swift", "InstanceStatusFile.swift",
    ]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every Swift file of the daemon's modules (everything under Sources/ but the benchmark, which runs the daemon
    /// as a separate process), relative to Sources/.
    static func swiftFiles() -> [String] {
        let modules = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        var files: [String] = []
        for module in modules where module != "widgetd-bench" {
            let root = sources.appendingPathComponent(module).path
            for path in (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []
            where path.hasSuffix(".swift") {
                files.append("\(module)/\(path)")
            }
        }
        return files.sorted()
    }

    /// Whether `text` has an `import Foundation` line, with or without an access level or attribute before it.
    static func importsFoundation(_ text: String) -> Bool {
        let modifiers: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
        return text.split(separator: "\n").contains { line in
            let words = line.split(separator: " ").filter { !$0.hasPrefix("@") && !modifiers.contains($0) }
            return words == ["import", "Foundation"]
        }
    }

    @Test func noDaemonFileImportsFoundation() throws {
        let files = Self.swiftFiles()
        #expect(files.count > 100, "found the sources at \(Self.sources.path)")
        var offenders: [String] = []
        for file in files where !Self.timeZoneFilesLeftToTheTZBranch.contains((file as NSString).lastPathComponent) {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            if Self.importsFoundation(text) { offenders.append(file) }
        }
        #expect(
            offenders.isEmpty,
            """
            These files import Foundation, which links ICU into widgetd (issue 15); import FoundationEssentials and \
            use Basics (Path, trimming, replacingAll, DetachedThread, RecursiveLock, Condition), JSONValue or \
            Synchronization.Mutex instead: \(offenders)
            """)
    }

    /// An exception only for a file that still needs it, so the list shrinks as tz's work lands.
    @Test func everyExceptionIsAFileThatStillImportsFoundation() throws {
        for file in Self.swiftFiles()
        where Self.timeZoneFilesLeftToTheTZBranch.contains((file as NSString).lastPathComponent) {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            #expect(
                Self.importsFoundation(text),
                "\(file) no longer imports Foundation: remove it from timeZoneFilesLeftToTheTZBranch")
        }
    }

    @Test(arguments: [
        ("import Foundation", true), ("@preconcurrency import Foundation", true), ("public import Foundation", true),
        ("import FoundationEssentials", false), ("// import Foundation in a comment", false), ("import Glibc", false),
    ])
    func anImportLineIsRecognised(_ line: String, _ imports: Bool) {
        #expect(Self.importsFoundation("x\n\(line)\ny") == imports)
    }
}
