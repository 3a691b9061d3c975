import Foundation
import Testing

/// docs/kinds.md, written by hand, describes what `widgetd kinds` lists (issue 36: every kind, parameter, placeholder
/// and intent): each kind's section names each of its parameters, widget keys, intents and format placeholders. A
/// system kind's section is read with the "System kinds" opening, which describes what they share (`interval:`).
@Suite("docs/kinds.md against widgetd kinds")
struct KindsReferenceTests {
    /// `widgetd kinds`, by kind: the names it lists under parameters, widget keys and intents, and the placeholders
    /// (`{used}`) its descriptions name.
    static func listed() throws -> [(kind: String, names: [String], placeholders: [String])] {
        let output = try runWidgetd(["kinds"])
        try #require(output.status == 0, "\(output.stderr)")
        return output.stdout.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: true)
            guard let first = lines.first, let kind = first.components(separatedBy: " — ").first else { return nil }
            let names = lines.dropFirst().filter { $0.hasPrefix("    ") && !$0.hasPrefix("     ") }.compactMap {
                $0.split(separator: " ").first.map { String($0.hasSuffix(":") ? $0.dropLast() : $0) }
            }
            let placeholders = block.matches(of: #/\{[a-z0-9_]+\}/#).map { String($0.output) }
            return (kind, names, Array(Set(placeholders)).sorted())
        }
    }

    /// The text under `heading` up to the next heading of level 2 or 3.
    static func section(_ heading: String, of markdown: String) -> String? {
        guard let start = markdown.range(of: "\n" + heading + "\n") else { return nil }
        let rest = markdown[start.upperBound...]
        let end = [rest.range(of: "\n## ")?.lowerBound, rest.range(of: "\n### ")?.lowerBound].compactMap { $0 }.min()
        return String(rest[..<(end ?? rest.endIndex)])
    }

    @Test func everyKindsSectionNamesWhatWidgetdKindsLists() throws {
        let reference = try String(contentsOfFile: packageRoot.path + "/docs/kinds.md", encoding: .utf8)
        let shared = try #require(Self.section("## System kinds", of: reference))
        let listed = try Self.listed()
        #expect(listed.count >= 16, "\(listed.map(\.kind))")
        for (kind, names, placeholders) in listed {
            let own =
                Self.section("## \(kind)", of: reference)
                ?? Self.section("### \(kind)", of: reference).map {
                    $0 + shared
                }
            let text = try #require(own, "docs/kinds.md has no section for \(kind)")
            for name in names { #expect(text.contains(name), "docs/kinds.md's \(kind) does not name \(name)") }
            for placeholder in placeholders {
                #expect(text.contains(placeholder), "docs/kinds.md's \(kind) does not name \(placeholder)")
            }
        }
    }
}
