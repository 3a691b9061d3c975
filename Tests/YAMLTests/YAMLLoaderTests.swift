import Testing

@testable import YAML

/// Tests for the libyaml-backed loader; every position is checked exactly, since marks are what users act on.
struct YAMLLoaderTests {
    // MARK: - Helpers

    private func load(_ text: String) throws -> YAMLDocument {
        try YAMLLoader.load(text)
    }

    private func root(_ text: String) throws -> YAMLNode {
        try #require(try load(text).root)
    }

    /// The error `text` raises, or a test failure if it loads.
    private func loadError(_ text: String, limits: YAMLLoader.Limits = .default) -> YAMLError? {
        do {
            let document = try YAMLLoader.load(text, limits: limits)
            Issue.record("expected an error, loaded \(String(describing: document.root?.kindDescription))")
            return nil
        } catch {
            return error
        }
    }

    private func mark(_ line: Int, _ column: Int) -> YAMLMark {
        YAMLMark(line: line, column: column)
    }

    private func keys(_ node: YAMLNode?) -> [String] {
        node?.mapping?.compactMap { $0.key.text } ?? []
    }

    // MARK: - Scalars

    @Test func plainAndQuotedScalars() throws {
        let node = try root(
            """
            plain: hello world
            single: 'it''s here'
            double: "tab\\there \\u00e9 \\"q\\" \\x41"
            number: 42
            """)
        let plain = try #require(node["plain"])
        #expect(plain.key.mark == mark(1, 1))
        #expect(plain.value.scalar == YAMLScalar(text: "hello world", style: .plain))
        #expect(plain.value.mark == mark(1, 8))
        let single = try #require(node["single"]?.value)
        #expect(single.scalar == YAMLScalar(text: "it's here", style: .singleQuoted))
        #expect(single.mark == mark(2, 9))
        let double = try #require(node["double"]?.value)
        #expect(double.scalar == YAMLScalar(text: "tab\there é \"q\" A", style: .doubleQuoted))
        #expect(double.mark == mark(3, 9))
        #expect(node["number"]?.value.text == "42")
    }

    @Test func blockAndMultiLineScalars() throws {
        let node = try root(
            """
            literal: |
              line one
                indented

              after blank
            folded: >
              folded
              text

              new paragraph
            stripped: |-
              no newline
            plain: first
              second
              third
            quoted: "one
              two \\
              three"
            end: x
            """)
        let literal = try #require(node["literal"]?.value)
        #expect(literal.scalar == YAMLScalar(text: "line one\n  indented\n\nafter blank\n", style: .literal))
        #expect(literal.mark == mark(1, 10))
        let folded = try #require(node["folded"]?.value)
        #expect(folded.scalar == YAMLScalar(text: "folded text\nnew paragraph\n", style: .folded))
        #expect(folded.mark == mark(6, 9))
        #expect(node["stripped"]?.value.text == "no newline")
        let plain = try #require(node["plain"]?.value)
        #expect(plain.scalar == YAMLScalar(text: "first second third", style: .plain))
        #expect(plain.mark == mark(13, 8))
        let quoted = try #require(node["quoted"]?.value)
        #expect(quoted.scalar == YAMLScalar(text: "one two three", style: .doubleQuoted))
        #expect(quoted.mark == mark(16, 9))
        #expect(node["end"]?.key.mark == mark(19, 1))
    }

    @Test func scalarsAreNotTypeGuessed() throws {
        let node = try root("a: yes\nb: 1\nc: true\nd: 1.5e3\ne: 0x1F\nf: NO\n")
        #expect(node.mapping?.map { $0.value.text } == ["yes", "1", "true", "1.5e3", "0x1F", "NO"])
        #expect(node.mapping?.allSatisfy { $0.value.scalar?.style == .plain && $0.value.isNull == false } == true)
    }

    @Test(arguments: [
        ("v: ~", true), ("v: null", true), ("v: Null", true), ("v: NULL", true), ("v:", true), ("v: ", true),
        ("v: nULL", false), ("v: '~'", false), ("v: \"null\"", false), ("v: ''", false), ("v: !!str ~", false),
        ("v: !!null ~", true), ("v: none", false), ("v: |\n", false),
    ])
    func nullDetection(source: String, isNull: Bool) throws {
        let value = try #require(try root(source)["v"]?.value)
        #expect(value.isNull == isNull)
        #expect(value.scalar?.isNull == isNull)
    }

    @Test func explicitTagsAreKeptAndShortened() throws {
        let node = try root("a: !!str 123\nb: !widget {k: v}\nc: !!int '7'\nd: plain\n")
        #expect(node["a"]?.value.tag == "!!str")
        #expect(node["a"]?.value.text == "123")
        #expect(node["b"]?.value.tag == "!widget")
        #expect(node["b"]?.value.kindDescription == "a mapping")
        #expect(node["c"]?.value.tag == "!!int")
        #expect(node["d"]?.value.tag == nil)
    }

    @Test func unicodeColumnsCountScalarsNotBytes() throws {
        let node = try root("é🙂: [1, x]\nn: \"ü\"\n")
        let items = try #require(node["é🙂"]?.value.sequence)
        #expect(node["é🙂"]?.value.mark == mark(1, 5))
        #expect(items.map(\.mark) == [mark(1, 6), mark(1, 9)])
        #expect(node["n"]?.value.mark == mark(2, 4))
    }

    @Test func windowsLineEndingsAndByteOrderMark() throws {
        let node = try root("\u{FEFF}a: 1\r\nb:\r\n  - x\r\n")
        #expect(node["a"]?.key.mark == mark(1, 1))
        #expect(node["b"]?.key.mark == mark(2, 1))
        #expect(node["b"]?.value.sequence?.first?.mark == mark(3, 5))
        #expect(node["b"]?.value.sequence?.first?.text == "x")
    }

    // MARK: - Comments and documents

    @Test func commentsAreIgnored() throws {
        let node = try root(
            """
            # leading comment
            a: 1 # trailing
            # between
            b: "# not a comment"
            c: a#b
              # indented comment
            """)
        #expect(keys(node) == ["a", "b", "c"])
        #expect(node["a"]?.value.text == "1")
        #expect(node["b"]?.value.text == "# not a comment")
        #expect(node["c"]?.value.text == "a#b")
        #expect(node.mark == mark(2, 1))
    }

    @Test(arguments: ["", "\n\n", "# only\n# comments\n", "   # indented\n", "---\n", "--- # c\n...\n"])
    func emptyDocumentsHaveNoRoot(source: String) throws {
        let document = try load(source)
        #expect(document.root == nil)
        #expect(document.diagnostics.isEmpty)
    }

    @Test func explicitEmptyStringIsARoot() throws {
        #expect(try root("''").scalar == YAMLScalar(text: "", style: .singleQuoted))
        #expect(try root("~").isNull)
    }

    @Test func explicitDocumentMarkersAreFine() throws {
        let node = try root("%YAML 1.1\n---\na: 1\n...\n")
        #expect(node.mark == mark(3, 1))
        #expect(node["a"]?.value.text == "1")
    }

    @Test func twoDocumentsAreRejectedAtTheSecond() throws {
        let error = try #require(loadError("a: 1\n---\nb: 2\n"))
        #expect(error == YAMLError(message: "expected a single YAML document", mark: mark(2, 1)))
        let afterEnd = try #require(loadError("--- a\n--- b\n"))
        #expect(afterEnd == YAMLError(message: "expected a single YAML document", mark: mark(2, 1)))
        // After `...` libyaml itself refuses a bare second document, before any event for it.
        let bare = try #require(loadError("a: 1\n...\nb: 2\n"))
        #expect(bare.mark == mark(3, 1))
        #expect(bare.message == "did not find expected <document start> (text after the end of the document)")
    }

    // MARK: - Collections

    @Test func nestedMappingsAndSequencesWithMarks() throws {
        let node = try root(
            """
            widgets:
              clock:
                kind: time
                sizes:
                  - small
                  - medium
              list:
              - a
              -   b
              - - nested
                - pair: 1
                  other: 2
            """)
        #expect(node.mark == mark(1, 1))
        let widgets = try #require(node["widgets"]?.value)
        #expect(widgets.mark == mark(2, 3))
        #expect(keys(widgets) == ["clock", "list"])
        let clock = try #require(widgets["clock"]?.value)
        #expect(clock.mark == mark(3, 5))
        let sizes = try #require(clock["sizes"]?.value)
        #expect(sizes.mark == mark(5, 7))
        #expect(sizes.sequence?.map(\.mark) == [mark(5, 9), mark(6, 9)])
        #expect(sizes.sequence?.map(\.text) == ["small", "medium"])
        // An indentless sequence starts at its first `-`, level with its key.
        let list = try #require(widgets["list"]?.value.sequence)
        #expect(widgets["list"]?.value.mark == mark(8, 3))
        #expect(list.map(\.mark) == [mark(8, 5), mark(9, 7), mark(10, 5)])
        let inner = try #require(list[2].sequence)
        #expect(inner[0].mark == mark(10, 7))
        #expect(inner[1].mark == mark(11, 7))
        #expect(inner[1]["other"]?.key.mark == mark(12, 7))
        #expect(inner[1]["other"]?.value.mark == mark(12, 14))
    }

    @Test func flowCollectionsWithMarks() throws {
        let node = try root("a: [1, 'two', {k: v, n: [x]}]\nb: {}\nc: []\nd: {x, y: }\n")
        let a = try #require(node["a"]?.value)
        #expect(a.mark == mark(1, 4))
        let items = try #require(a.sequence)
        #expect(items.map(\.mark) == [mark(1, 5), mark(1, 8), mark(1, 15)])
        #expect(items[2]["k"]?.value.mark == mark(1, 19))
        #expect(items[2]["n"]?.value.sequence?.first?.mark == mark(1, 26))
        #expect(node["b"]?.value.mapping?.isEmpty == true)
        #expect(node["c"]?.value.sequence?.isEmpty == true)
        let d = try #require(node["d"]?.value)
        #expect(keys(d) == ["x", "y"])
        #expect(d["x"]?.value.isNull == true)
        #expect(d["y"]?.value.isNull == true)
    }

    @Test func complexKeysAreKept() throws {
        let node = try root("? [a, b]\n: pair\nplain: 1\n")
        let pairs = try #require(node.mapping)
        #expect(pairs.count == 2)
        #expect(pairs[0].key.sequence?.map(\.text) == ["a", "b"])
        #expect(pairs[0].key.mark == mark(1, 3))
        #expect(pairs[0].value.text == "pair")
        #expect(node["plain"]?.value.text == "1")
    }

    @Test func convenienceAccessors() throws {
        let node = try root("m: {k: v}\ns: [1]\nv: x\n")
        #expect(node.kindDescription == "a mapping")
        #expect(node["s"]?.value.kindDescription == "a sequence")
        #expect(node["v"]?.value.kindDescription == "a scalar")
        #expect(node["v"]?.value.mapping == nil)
        #expect(node["v"]?.value.sequence == nil)
        #expect(node["m"]?.value.scalar == nil)
        #expect(node["missing"] == nil)
        #expect(node["v"]?.value["k"] == nil)
    }

    // MARK: - Anchors and aliases

    @Test func aliasesCopyTheAnchoredNodeWithItsMarks() throws {
        let node = try root(
            """
            base: &base
              kind: quotes
              size: small
            scalar: &s hello
            copy: *base
            again: *s
            list: [*s, *base]
            """)
        let copy = try #require(node["copy"]?.value)
        #expect(copy.mark == mark(1, 7))
        #expect(keys(copy) == ["kind", "size"])
        #expect(copy["kind"]?.value.mark == mark(2, 9))
        let again = try #require(node["again"]?.value)
        #expect(again.text == "hello")
        #expect(again.mark == mark(4, 9))
        let list = try #require(node["list"]?.value.sequence)
        #expect(list.map(\.mark) == [mark(4, 9), mark(1, 7)])
    }

    @Test func laterAnchorReplacesEarlierOne() throws {
        let node = try root("a: &x one\nb: *x\nc: &x two\nd: *x\n")
        #expect(node["b"]?.value.text == "one")
        #expect(node["d"]?.value.text == "two")
        #expect(node["d"]?.value.mark == mark(3, 4))
    }

    @Test func unknownAliasIsAnErrorAtTheAlias() throws {
        let error = try #require(loadError("a: 1\nb:\n  - *missing\n"))
        #expect(error == YAMLError(message: "unknown alias 'missing'", mark: mark(3, 5)))
    }

    @Test func aliasToAnEnclosingNodeIsAnError() throws {
        let error = try #require(loadError("a: &x\n  b: *x\n"))
        #expect(error == YAMLError(message: "alias 'x' refers to a node that contains it", mark: mark(2, 6)))
    }

    @Test func billionLaughsThrowsInsteadOfExpanding() throws {
        var lines = ["a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]"]
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        for (previous, name) in zip(names, names.dropFirst()) {
            let aliases = Array(repeating: "*\(previous)", count: 9).joined(separator: ", ")
            lines.append("\(name): &\(name) [\(aliases)]")
        }
        let error = try #require(loadError(lines.joined(separator: "\n")))
        #expect(error.message == "document expands to more than 1000000 nodes (alias bomb?)")
        // Each level is 9 times the last: `f` is ~600,000 nodes, so the first `*f` on the `g` line crosses the limit.
        #expect(error.mark == mark(7, 8))
    }

    @Test func nodeLimitCountsAliasExpansions() throws {
        let source = "a: &a [1, 2, 3]\nb: [*a, *a]\n"
        // 1 root + 2 keys + (1 + 3) anchored + 1 sequence + 2 × 4 through aliases = 16 nodes.
        #expect(throws: Never.self) { try YAMLLoader.load(source, limits: .init(maxNodes: 16)) }
        let error = try #require(loadError(source, limits: .init(maxNodes: 15)))
        #expect(error == YAMLError(message: "document expands to more than 15 nodes (alias bomb?)", mark: mark(2, 9)))
    }

    // MARK: - Merge keys

    @Test func singleMerge() throws {
        let node = try root(
            """
            base: &base
              kind: quotes
              family: systemSmall
            widget:
              <<: *base
              name: mine
            """)
        let widget = try #require(node["widget"]?.value)
        #expect(keys(widget) == ["kind", "family", "name"])
        #expect(widget["<<"] == nil)
        // Merged pairs keep the marks of their definition.
        #expect(widget["kind"]?.key.mark == mark(2, 3))
        #expect(widget["name"]?.key.mark == mark(6, 3))
    }

    @Test func explicitKeysWinWhereverTheyAreWritten() throws {
        let node = try root(
            """
            base: &base {kind: quotes, family: systemSmall, tint: red}
            widget:
              family: systemLarge
              <<: *base
              tint: blue
            """)
        let widget = try #require(node["widget"]?.value)
        #expect(keys(widget) == ["family", "kind", "tint"])
        #expect(widget["family"]?.value.text == "systemLarge")
        #expect(widget["tint"]?.value.text == "blue")
        #expect(widget["tint"]?.value.mark == mark(5, 9))
        #expect(widget["kind"]?.value.text == "quotes")
        #expect(try load("base: &b {k: 1}\nw:\n  k: 2\n  <<: *b\n").diagnostics.isEmpty)
    }

    @Test func mergeListEarlierMappingWins() throws {
        let node = try root(
            """
            a: &a {x: from-a, y: from-a}
            b: &b {y: from-b, z: from-b}
            c:
              <<: [*a, *b, {w: inline, x: inline}]
              own: 1
            """)
        let c = try #require(node["c"]?.value)
        #expect(keys(c) == ["x", "y", "z", "w", "own"])
        #expect(c["x"]?.value.text == "from-a")
        #expect(c["y"]?.value.text == "from-a")
        #expect(c["z"]?.value.text == "from-b")
        #expect(c["w"]?.value.text == "inline")
        #expect(c["w"]?.key.mark == mark(4, 17))
    }

    @Test func mergeIntoNestedMapping() throws {
        let node = try root(
            """
            defaults: &defaults
              intent:
                category: focus
              refresh: 60
            widgets:
              clock:
                settings:
                  <<: *defaults
                  refresh: 30
            """)
        let settings = try #require(node["widgets"]?.value["clock"]?.value["settings"]?.value)
        #expect(keys(settings) == ["intent", "refresh"])
        #expect(settings["refresh"]?.value.text == "30")
        #expect(settings["intent"]?.value["category"]?.value.text == "focus")
        #expect(settings["intent"]?.value["category"]?.value.mark == mark(3, 15))
    }

    @Test func mergedMappingWithItsOwnMerge() throws {
        let node = try root("a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nc: {<<: *b, z: 3}\n")
        #expect(keys(node["c"]?.value) == ["x", "y", "z"])
    }

    @Test func quotedMergeKeyIsAnOrdinaryKey() throws {
        let node = try root("a: &a {x: 1}\nb: {'<<': *a}\n")
        #expect(keys(node["b"]?.value) == ["<<"])
    }

    @Test(arguments: [
        ("a: 1\nb:\n  <<: scalar\n", "a scalar", 3, 7),
        ("s: &s text\nb:\n  <<: *s\n", "a scalar", 3, 7),
        ("a: &a {x: 1}\nb:\n  <<: [*a, [1]]\n", "a sequence", 3, 12),
        ("a: &a {x: 1}\nb:\n  <<: [*a, 2]\n", "a scalar", 3, 12),
        ("b:\n  <<:\n", "a scalar", 2, 6),
    ])
    func invalidMergeValue(source: String, found: String, line: Int, column: Int) throws {
        let error = try #require(loadError(source))
        #expect(error.message == "merge key '<<' expects a mapping or a sequence of mappings, found \(found)")
        #expect(error.mark == mark(line, column))
    }

    // MARK: - Duplicate keys

    @Test func duplicateKeysKeepTheFirstAndReport() throws {
        let document = try load(
            """
            name: first
            other: 1
            nested:
              k: a
              k: b
            name: second
            'other': 2
            """)
        let node = try #require(document.root)
        #expect(keys(node) == ["name", "other", "nested"])
        #expect(node["name"]?.value.text == "first")
        #expect(node["other"]?.value.text == "1")
        #expect(node["nested"]?.value["k"]?.value.text == "a")
        #expect(
            document.diagnostics == [
                YAMLDiagnostic(message: "duplicate key 'k' (first at line 4, column 3)", mark: mark(5, 3)),
                YAMLDiagnostic(message: "duplicate key 'name' (first at line 1, column 1)", mark: mark(6, 1)),
                YAMLDiagnostic(message: "duplicate key 'other' (first at line 2, column 1)", mark: mark(7, 1)),
            ])
    }

    /// A mapping of more than eight pairs keeps its keys' first places in a dictionary, a smaller one scans the keys
    /// before each: both keep the first, report the rest, and let explicit keys win over merged ones.
    @Test func duplicateKeysInALargeMappingKeepTheFirstAndReport() throws {
        let base = "base: &base {k3: merged, m: merged}\n"
        let keys = (0..<10).map { "k\($0): \($0)\n" }.joined()
        let document = try load(
            base + "big:\n" + keys.split(separator: "\n").map { "  \($0)\n" }.joined()
                + "  k3: again\n  <<: *base\n")
        let big = try #require(document.root?["big"]?.value)
        #expect(self.keys(big) == (0..<10).map { "k\($0)" } + ["m"])
        #expect(big["k3"]?.value.text == "3")
        #expect(big["m"]?.value.text == "merged")
        #expect(
            document.diagnostics == [
                YAMLDiagnostic(message: "duplicate key 'k3' (first at line 6, column 3)", mark: mark(13, 3))
            ])
    }

    @Test func duplicatesInsideAnAnchorAreReportedOnce() throws {
        let document = try load("a: &a {k: 1, k: 2}\nb: *a\nc: *a\n")
        #expect(document.diagnostics.count == 1)
        #expect(document.diagnostics.first?.mark == mark(1, 14))
        #expect(document.root?["c"]?.value["k"]?.value.text == "1")
    }

    // MARK: - Syntax errors

    @Test(
        arguments: [
            // Dedented key: libyaml is still in the outer mapping and finds ` c` where a key should start.
            (
                "a:\n  b: 1\n c: 2\n", 3, 2,
                "while parsing a block mapping starting at line 1, column 1: did not find expected key"
            ),
            // Over-indented key: libyaml folds `c` into the plain scalar `1 c`, then trips on the colon.
            ("a:\n  b: 1\n   c: 2\n", 3, 5, "mapping values are not allowed in this context"),
            // Unclosed quotes are reported at the end of input by libyaml; the opening quote is what to fix.
            ("a: \"hello\nb: 2\n", 1, 4, "while scanning a quoted scalar: found unexpected end of stream"),
            ("a: 'hello\nb: 2\n# trailing\n", 1, 4, "while scanning a quoted scalar: found unexpected end of stream"),
            (
                "a:\n\tb: 1\n", 2, 1,
                "while scanning for the next token: found character that cannot start any token "
                    + "(a tab; YAML indentation must use spaces)"
            ),
            (
                "a: b\n\t# tab\n", 2, 1,
                "while scanning a plain scalar starting at line 1, column 4: "
                    + "found a tab character that violates indentation"
            ),
            // `unclosed other` becomes one plain scalar, so libyaml fails at the colon on line 2 and names the `[`.
            (
                "key: [unclosed\nother: 1\n", 2, 6,
                "while parsing a flow sequence starting at line 1, column 6: did not find expected ',' or ']'"
            ),
            (
                "key: [a, b\n", 1, 6,
                "while parsing a flow sequence: did not find expected ',' or ']' before the end of the input"
            ),
            (
                "key: {a: 1\n# c\n", 1, 6,
                "while parsing a flow mapping: did not find expected ',' or '}' before the end of the input"
            ),
            // libyaml notices the missing colon on the next line; the key itself is the useful position.
            ("a: 1\nb\nc: 2\n", 2, 1, "while scanning a simple key: could not find expected ':'"),
            (
                "a: 1\n- b\n", 2, 1,
                "while parsing a block mapping starting at line 1, column 1: did not find expected key"
            ),
            ("a: b: c\n", 1, 5, "mapping values are not allowed in this context"),
            (
                "items:\n  - a\n  b: 1\n", 3, 3,
                "while parsing a block collection starting at line 2, column 3: did not find expected '-' indicator"
            ),
            ("a: \"bad \\q\"\n", 1, 9, "while parsing a quoted scalar: found unknown escape character"),
            ("a: |x\n  y\n", 1, 5, "while scanning a block scalar: did not find expected comment or line break"),
            ("key: ]\n", 1, 6, "while parsing a block node: did not find expected node content"),
            ("é: [1, \"x\n", 1, 8, "while scanning a quoted scalar: found unexpected end of stream"),
            ("a: *\n", 1, 5, "while scanning an alias: did not find expected alphabetic or numeric character"),
        ] as [(String, Int, Int, String)])
    func syntaxErrors(source: String, line: Int, column: Int, message: String) throws {
        let error = try #require(loadError(source))
        #expect(error.message == message)
        #expect(error.mark == mark(line, column))
    }

    @Test func readerErrorsGetAPosition() throws {
        let invalid = #expect(throws: YAMLError.self) {
            try YAMLLoader.load(bytes: Array("a: 1\nb: ".utf8) + [0xFF, 0x0A])
        }
        #expect(invalid == YAMLError(message: "invalid leading UTF-8 octet (0xFF)", mark: mark(2, 4)))
        let truncated = #expect(throws: YAMLError.self) {
            try YAMLLoader.load(bytes: Array("é: ".utf8) + [0xC3])
        }
        #expect(truncated == YAMLError(message: "incomplete UTF-8 octet sequence", mark: mark(1, 4)))
        let control = try #require(loadError("a: b\u{0}c"))
        #expect(control == YAMLError(message: "control characters are not allowed (U+0000)", mark: mark(1, 5)))
    }

    @Test func utf16WithByteOrderMarkIsAccepted() throws {
        let bytes: [UInt8] = [0xFF, 0xFE] + "a: ü\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let node = try #require(try YAMLLoader.load(bytes: bytes).root)
        #expect(node["a"]?.value.text == "ü")
        #expect(node["a"]?.value.mark == mark(1, 4))
    }

    /// Bytes no config should hold, and what loading them must give: an error with its place, or what they are.
    struct Garbage: Sendable, CustomTestStringConvertible {
        var bytes: [UInt8]
        /// `line:column: message` of the error, or `loads <kind of root>`.
        var outcome: String
        var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }
    }

    @Test(arguments: [
        Garbage(bytes: [], outcome: "loads nothing"),
        Garbage(bytes: [0xFF], outcome: "1:1: invalid leading UTF-8 octet (0xFF)"),
        Garbage(bytes: [0xFE, 0xFF, 0x00], outcome: "1:1: incomplete UTF-16 character"),
        Garbage(bytes: [0x22], outcome: "1:1: while scanning a quoted scalar: found unexpected end of stream"),
        Garbage(
            bytes: [0x5B, 0x7B, 0x22], outcome: "1:3: while scanning a quoted scalar: found unexpected end of stream"),
        Garbage(bytes: [0xEF, 0xBB, 0xBF, 0xFF], outcome: "1:1: invalid leading UTF-8 octet (0xFF)"),
        Garbage(
            bytes: [0x26, 0x2A],
            outcome: "1:2: while scanning an anchor: did not find expected alphabetic or numeric character"),
        Garbage(bytes: Array("- &a [*a]\n".utf8), outcome: "1:7: alias 'a' refers to a node that contains it"),
        Garbage(bytes: Array("? ? ? ? ?\n".utf8), outcome: "loads a mapping"),
        Garbage(
            bytes: Array("!<tag:x> &a !y".utf8),
            outcome: "1:13: did not find expected <document start> (text after the end of the document)"),
        Garbage(
            bytes: Array("%TAG ! !x\n".utf8),
            outcome: "2:1: did not find expected <document start> (text after the end of the document)"),
    ])
    func garbageNeverCrashes(_ garbage: Garbage) {
        let outcome: String
        do {
            let document = try YAMLLoader.load(bytes: garbage.bytes)
            outcome = "loads " + (document.root?.kindDescription ?? "nothing")
            #expect(document.diagnostics.isEmpty)
        } catch {
            outcome = "\(error.mark.line):\(error.mark.column): \(error.message)"
        }
        #expect(outcome == garbage.outcome)
    }

    @Test func deepNestingIsBounded() throws {
        let limited = YAMLLoader.Limits(maxDepth: 3)
        #expect(throws: Never.self) { try YAMLLoader.load("[[[x]]]", limits: limited) }
        let error = try #require(loadError("[[[[x]]]]", limits: limited))
        #expect(error == YAMLError(message: "document nests deeper than 3 levels", mark: mark(1, 4)))
        // At the default limit a hostile document fails fast instead of overflowing a stack.
        let hostile = String(repeating: "[", count: 200_000)
        #expect(loadError(hostile)?.message == "document nests deeper than 1000 levels")
        let deepest = String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000)
        #expect(throws: Never.self) { try YAMLLoader.load(deepest) }
    }

    @Test func marksOrderBySourcePosition() {
        #expect(mark(1, 9) < mark(2, 1))
        #expect(mark(2, 1) < mark(2, 2))
        #expect(YAMLError(message: "m", mark: mark(3, 4)).description == "line 3, column 4: m")
    }

    // MARK: - Scale

    @Test func aThousandWidgetsKeepTheirMarks() throws {
        var source = "widgets:\n"
        for index in 0..<1_000 {
            source += "  w\(index):\n    kind: quotes\n    family: systemSmall\n    intent:\n      category: focus\n"
        }
        // What loading costs is widgetd-bench's to measure (`check` of 10,000 widgets); here, that every mark is
        // still right far down a long file.
        let document = try YAMLLoader.load(source)
        let widgets = try #require(document.root?["widgets"]?.value.mapping)
        #expect(widgets.count == 1_000)
        #expect(document.diagnostics.isEmpty)
        let last = try #require(widgets.last)
        #expect(last.key.text == "w999")
        #expect(last.key.mark == mark(2 + 999 * 5, 3))
        #expect(last.value["intent"]?.value["category"]?.value.text == "focus")
    }
}
