import Foundation
import Testing

/// A newcomer with only the README reaches a green `swift test`: its Quick start names every package `.ci/run`
/// installs for the tests, and its commands work without `XDG_RUNTIME_DIR`.
@Suite("the README's prerequisites")
struct ReadmePrerequisitesTests {
    /// The README's Quick start section.
    static func quickStart() throws -> String {
        let readme = try String(contentsOfFile: packageRoot.path + "/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: "## Quick start"))
        let end = readme[start.upperBound...].range(of: "\n## ")?.lowerBound ?? readme.endIndex
        return String(readme[start.lowerBound..<end])
    }

    @Test func everyPackageCIInstallsIsNamed() throws {
        let script = try String(contentsOfFile: packageRoot.path + "/.ci/run", encoding: .utf8)
        let start = try #require(script.range(of: "packages=("))
        let end = try #require(script[start.upperBound...].firstIndex(of: ")"))
        let packages = script[start.upperBound..<end].split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(packages.count > 20, "\(packages)")
        let words = Set(
            try Self.quickStart().split { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }.map(String.init))
        let missing = packages.filter { !words.contains($0) }
        #expect(missing.isEmpty, "the README's Quick start does not name \(missing)")
    }

    @Test func itsCommandsDoNotNeedXDGRuntimeDir() throws {
        #expect(!(try Self.quickStart()).contains("$XDG_RUNTIME_DIR"))
    }
}
