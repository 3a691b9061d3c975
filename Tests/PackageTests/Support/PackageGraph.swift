import Foundation

/// The package's targets as Package.swift declares them, and the modules each target's Swift files import: what
/// `PackageGraphTests` holds against each other and against the graph drawn in the README.
///
/// Package.swift is read as text rather than through `swift package dump-package`, which would wait for the build
/// lock that `swift test` holds. It is written in one style (`.target(name: "X", dependencies: ["A", …], …)`);
/// anything else in a dependency list is reported as unreadable, so the check never passes by skipping a target.
struct PackageGraph {
    struct Target {
        var name: String
        /// `target`, `executableTarget`, `testTarget` or `systemLibrary`.
        var type: String
        var dependencies: Set<String>
        /// The list as written, when it holds anything but plain target names.
        var unreadable: String?
        /// Its `path:`, when the manifest gives one.
        var path: String?

        /// The folder holding its sources: its `path:`, else Sources/NAME, or Tests/NAME for a test target.
        var directory: String { path ?? (type == "testTarget" ? "Tests/" : "Sources/") + name }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    let targets: [String: Target]

    init() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [String: Target] = [:]
        for call in Self.calls(in: manifest, named: ["target", "executableTarget", "testTarget", "systemLibrary"]) {
            guard let name = Self.firstMatch(#"name:\s*"([^"]+)""#, in: call.arguments) else { continue }
            var target = Target(name: name, type: call.name, dependencies: [])
            target.path = Self.firstMatch(#"path:\s*"([^"]+)""#, in: call.arguments)
            if let list = Self.firstMatch(#"dependencies:\s*\[([^\]]*)\]"#, in: call.arguments) {
                let names = Self.allMatches(#""([^"]+)""#, in: list)
                target.dependencies = Set(names)
                let rest = list.replacing(try! Regex(#""[^"]*""#), with: "")
                if rest.contains(where: { !($0.isWhitespace || $0 == ",") }) { target.unreadable = list }
            }
            targets[name] = target
        }
        self.targets = targets
    }

    /// The package's own modules imported by any Swift file under the target's folder, with the files importing each.
    func imports(of target: Target) throws -> [String: [String]] {
        let directory = Self.root.appendingPathComponent(target.directory)
        var found: [String: [String]] = [:]
        guard let files = FileManager.default.enumerator(atPath: directory.path) else { return [:] }
        let importLine = Self.importLine()
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for module in Self.importedModules(in: text, matching: importLine) where targets[module] != nil {
                found[module, default: []].append(file)
            }
        }
        return found
    }

    /// Every module the package's targets reach from `name` by declared dependencies, `name` excluded.
    func reachable(from name: String) -> Set<String> {
        var seen: Set<String> = []
        var queue = Array(targets[name]?.dependencies ?? [])
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            queue += targets[next]?.dependencies ?? []
        }
        return seen
    }

    /// The module of each `import` line: `import X`, `@testable import X`, `internal import X`, `import struct X.Y`.
    static func importedModules(in source: String, matching importLine: Regex<AnyRegexOutput> = importLine())
        -> [String]
    {
        // A match lies within one line and holds the word `import`: the pattern runs only on such lines, not on every
        // file's whole text (Swift's regex engine took a second of CPU per run for that). Lines are cut at "\n" bytes;
        // the pattern's anchors still see any other line ending inside a kept line.
        let candidates = source.utf8.split(separator: UInt8(ascii: "\n")).map { Substring($0) }
            .filter { $0.contains("import") }
        return candidates.joined(separator: "\n").matches(of: importLine).map {
            String($0.output[1].substring ?? "")
        }
    }

    /// The pattern of an import line, made once per target rather than once per file (Regex is not `Sendable`, so
    /// it cannot be a static constant).
    static func importLine() -> Regex<AnyRegexOutput> {
        try! Regex(
            #"^[ \t]*(?:@\w+[ \t]+)*(?:(?:public|package|internal|fileprivate|private)[ \t]+)?import[ \t]+"#
                + #"(?:(?:struct|class|enum|protocol|typealias|func|var|let)[ \t]+)?(\w+)"#
        ).anchorsMatchLineEndings(true)
    }

    /// The graph drawn in a Markdown file: the lines `Target → A, B, C` (or `Target → nothing`) inside the fenced
    /// block that follows a line holding `marker`.
    static func drawnGraph(in file: String, after marker: String) throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        lines = lines.drop { !$0.contains(marker) }.dropFirst().drop { !$0.hasPrefix("```") }.dropFirst()
        var graph: [String: Set<String>] = [:]
        for line in lines.prefix(while: { !$0.hasPrefix("```") }) {
            let sides = line.components(separatedBy: "→")
            guard sides.count == 2 else { continue }
            // A note after the list, in parentheses, is for the reader.
            let list = sides[1].components(separatedBy: "(")[0]
            let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for target in sides[0].split(separator: ",") {
                let target = target.trimmingCharacters(in: .whitespaces)
                graph[target] = names == ["nothing"] ? [] : Set(names)
            }
        }
        return graph
    }

    private static func calls(in text: String, named names: [String]) -> [(name: String, arguments: String)] {
        let regex = try! Regex(#"\.("# + names.joined(separator: "|") + #")\("#)
        return text.matches(of: regex).map { match in
            var depth = 1
            var index = match.range.upperBound
            while index < text.endIndex, depth > 0 {
                if text[index] == "(" { depth += 1 }
                if text[index] == ")" { depth -= 1 }
                index = text.index(after: index)
            }
            let end = depth == 0 ? text.index(before: index) : index
            return (String(match.output[1].substring ?? ""), String(text[match.range.upperBound..<end]))
        }
    }

    private static func firstMatch(_ pattern: String, in text: String) -> String? {
        allMatches(pattern, in: text).first
    }

    /// The first capture of every match of `pattern`; `multiline` lets `^` match at every line's start.
    private static func allMatches(_ pattern: String, in text: String, multiline: Bool = false) -> [String] {
        let regex = try! Regex(pattern).anchorsMatchLineEndings(multiline)
        return text.matches(of: regex).map { String($0.output[1].substring ?? "") }
    }
}
