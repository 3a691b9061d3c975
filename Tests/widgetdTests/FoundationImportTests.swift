import Foundation
import Testing

/// Issue 15: the daemon links no ICU. Every file of the daemon's modules imports FoundationEssentials (or no
/// Foundation at all), never `Foundation`, whose static library brings FoundationInternationalization and ICU's 34 MB
/// of data into the binary.
@Suite("no Foundation, so no ICU, in the daemon's modules")
struct FoundationImportTests {
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
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            if Self.importsFoundation(text) { offenders.append(file) }
        }
        #expect(
            offenders.isEmpty,
            """
            These files import Foundation, which links ICU into widgetd (issue 15); import FoundationEssentials and \
            use Basics (Path, trimming, replacingAll, DetachedThread, Condition), JSONValue or \
            Synchronization.Mutex instead: \(offenders)
            """)
    }

    @Test(arguments: [
        ("import Foundation", true), ("@preconcurrency import Foundation", true), ("public import Foundation", true),
        ("import FoundationEssentials", false), ("// import Foundation in a comment", false), ("import Glibc", false),
    ])
    func anImportLineIsRecognised(_ line: String, _ imports: Bool) {
        #expect(Self.importsFoundation("x\n\(line)\ny") == imports)
    }
}
