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
        let packages = try Self.ciPackages()
        #expect(packages.count > 20, "\(packages)")
        let words = Set(
            try Self.quickStart().split { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }.map(String.init))
        let missing = packages.filter { !words.contains($0) }
        #expect(missing.isEmpty, "the README's Quick start does not name \(missing)")
    }

    /// Packages every Debian system has (priority required), which no list needs to name.
    static let baseSystem: Set<String> = ["util-linux", "bsdutils", "passwd"]

    /// The packages `.ci/run` installs.
    static func ciPackages() throws -> [String] {
        let script = try String(contentsOfFile: packageRoot.path + "/.ci/run", encoding: .utf8)
        let start = try #require(script.range(of: "packages=("))
        let end = try #require(script[start.upperBound...].firstIndex(of: ")"))
        return script[start.upperBound..<end].split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Every outside tool a test asks for (`requireExecutable(_:package:)`, `requirePythonModule`) comes from a package
    /// that `.ci/run` installs, and so the README names, or from the base system: a fresh machine with the README's
    /// list runs every test.
    @Test func everyPackageATestNeedsIsInstalledByCI() throws {
        let installed = Set(try Self.ciPackages()).union(Self.baseSystem)
        let tests = packageRoot.appendingPathComponent("Tests").path
        let files = try #require(FileManager.default.enumerator(atPath: tests)?.allObjects as? [String])
        var needed: Set<String> = []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: tests + "/" + file, encoding: .utf8)
            var rest = text[...]
            while let mark = rest.range(of: "package: \"") {
                let name = rest[mark.upperBound...].prefix { $0 != "\"" }
                if !name.isEmpty { needed.insert(String(name)) }
                rest = rest[mark.upperBound...]
            }
        }
        #expect(needed.count > 10, "\(needed)")
        #expect(needed.subtracting(installed).isEmpty, "tests need \(needed.subtracting(installed).sorted())")
    }

    @Test func itsCommandsDoNotNeedXDGRuntimeDir() throws {
        #expect(!(try Self.quickStart()).contains("$XDG_RUNTIME_DIR"))
    }
}
