import Formats
import Foundation
import Kind
import Synchronization
import Testing
import Timelines

@testable import Providers

@Suite("plugin protocol: lines and declarations")
struct PluginProtocolTests {
    private func feed(_ reader: inout PluginLineReader, _ text: String) -> [PluginLineReader.Item] {
        Array(text.utf8).withUnsafeBufferPointer { reader.feed($0) }
    }

    /// Every message reaches the listener through the same calls, however many came before: a listener reached one
    /// level deeper with each message overflowed a chatty plugin's thread after some minutes.
    @Test func aPluginsListenerIsCalledAtTheSameDepthForEveryMessage() {
        let host = PluginHost(name: "chatty", argv: ["/bin/false"], kind: "chatty")
        let stackAddresses = Mutex<[Int]>([])
        host.listen(statusDirectory: nil) { _ in
            var local = 0
            let address = withUnsafeMutablePointer(to: &local) { Int(bitPattern: $0) }
            stackAddresses.withLock { $0.append(address) }
        }
        for _ in 0..<2000 { host.emit(.log(kind: "chatty", level: "info", message: "said")) }
        let addresses = stackAddresses.withLock { $0 }
        #expect(addresses.count == 2000)
        #expect(
            abs((addresses.first ?? 0) - (addresses.last ?? 0)) < 1024,
            "the stack grew by \((addresses.first ?? 0) - (addresses.last ?? 0)) bytes")
    }

    @Test func linesSplitAcrossReadsAreJoined() {
        var reader = PluginLineReader(cap: 100)
        #expect(feed(&reader, "{\"a\"").isEmpty)
        #expect(feed(&reader, ":1}\n{\"b\":2}\n{") == [.line(Array("{\"a\":1}".utf8)), .line(Array("{\"b\":2}".utf8))])
        #expect(feed(&reader, "}\n") == [.line(Array("{}".utf8))])
    }

    @Test func anOversizedLineIsReportedOnceAndSkippedToItsNewline() {
        var reader = PluginLineReader(cap: 8)
        #expect(feed(&reader, "123456") == [])
        #expect(feed(&reader, "789") == [.oversized(replyTo: nil)])
        #expect(feed(&reader, String(repeating: "x", count: 10_000)) == [], "nothing more is reported or kept")
        #expect(feed(&reader, "yyy\nok\n") == [.line(Array("ok".utf8))])
    }

    /// A reply cut at the cap still names its request when its head is `{"id": N,`, so that request fails at once.
    @Test(
        arguments: [
            (#"{"id": 42, "entries": [{"text": "xxxxxxxxxxxxxxxxxxxxxxxx"#, 42),
            (#"  {  "id" :7 ,"entries": [{"text": "xxxxxxxxxxxxxxxxxxxxxxx"#, 7),
            (#"{"entries": [{"text": "xxxxxxxxxxxxxxxxxxx"}], "id": 42}"#, nil),
            (#"{"id": "42", "entries": [{"text": "xxxxxxxxxxxxxxxxxxxxxxx"#, nil),
            (#"{"id": 4.5, "entries": [{"text": "xxxxxxxxxxxxxxxxxxxxxxx"#, nil),
            (#"{"id": -3, "entries": [{"text": "xxxxxxxxxxxxxxxxxxxxxxx"#, nil),
            (#"{"id": 1234567890123456789012, "entries": [{"text": "xx"#, nil),
            (#"{"id""#, nil),
        ] as [(String, Int?)])
    func anOversizedReplyNamesItsRequestWhenItsHeadIsTheID(line: String, id: Int?) {
        var reader = PluginLineReader(cap: 40)
        #expect(feed(&reader, line + String(repeating: "x", count: 100) + "\n") == [.oversized(replyTo: id)])
    }

    private func hello(_ kind: JSONValue, protocolVersion: Int = 1) throws -> PluginDeclaration {
        try PluginDeclaration.parse([
            "type": "hello", "protocol": JSONValue(protocolVersion), "version": "2.1", "kind": kind,
        ])
    }

    /// docs/PLUGINS.md's example hello is a declaration a plugin author can copy: its right button named an intent it
    /// did not declare, and the plugin was left out.
    @Test func theDocumentedHelloIsAccepted() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/PLUGINS.md"), encoding: .utf8)
        let start = try #require(text.range(of: "```json\n{\"type\": \"hello\""))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        let json = text[text.index(start.lowerBound, offsetBy: "```json\n".count)..<end.lowerBound]
        let hello = try #require(try JSONValue.parse(Array(json.utf8)).object)
        let declaration = try PluginDeclaration.parse(hello)
        #expect(declaration.name == "pomodoro")
    }

    @Test func aHelloBecomesTypedParametersIntentsAndButtons() throws {
        let declaration = try hello([
            "name": "pomodoro", "families": ["accessoryInline"],
            "parameters": [
                ["name": "work", "type": "duration", "default": "25m"],
                ["name": "rounds", "type": "int", "min": 1, "max": 8, "default": 4],
                ["name": "loud", "type": "bool", "default": true],
                ["name": "style", "type": "enum", "cases": ["plain", ["name": "fancy", "display_name": "Fancy"]]],
            ],
            "intents": [["name": "toggle", "parameters": [["name": "minutes", "type": "int"]]]],
            "buttons": ["left": "toggle"],
        ])
        #expect(declaration.version == "2.1")
        #expect(declaration.families == [.accessoryInline])
        #expect(
            declaration.parameters.map(\.type) == [
                .duration, .int(1...8), .bool,
                .enumeration([EnumCase("plain", displayName: "plain"), EnumCase("fancy", displayName: "Fancy")]),
            ])
        #expect(declaration.parameters.map(\.defaultValue) == [.duration(1500), .int(4), .bool(true), nil])
        #expect(declaration.intents.first?.parameters.first?.type == .int(nil))
        #expect(declaration.buttons == [.left: "toggle"])
    }

    /// Each case: the kind object as JSON, and what the error must say.
    @Test(arguments: [
        (#"{"name": "Bad Name"}"#, "lowercase letters"),
        (#"{"name": "k", "families": ["systemHuge"]}"#, "unknown family 'systemHuge'"),
        (
            #"{"name": "k", "parameters": [{"name": "p", "type": "float"}]}"#,
            "types are string, bool, int, enum, duration"
        ),
        (#"{"name": "k", "parameters": [{"name": "p", "type": "enum"}]}"#, "declares no cases"),
        (#"{"name": "k", "parameters": [{"name": "p", "type": "int", "max": 3, "default": 9}]}"#, "out of range"),
        (#"{"name": "k", "buttons": {"left": "nothing"}}"#, "names no declared intent 'nothing'"),
        (
            #"{"name": "k", "parameters": [{"name": "p", "type": "bool"}, {"name": "p", "type": "int"}]}"#,
            "declares parameter 'p' twice"
        ),
        (#"{"name": "k", "intents": [{"name": "go"}, {"name": "go"}]}"#, "declares intent 'go' twice"),
        (
            #"{"name": "k", "intents": [{"name": "go", "parameters": [{"name": "n", "type": "int"}, {"name": "n", "type": "int"}]}]}"#,
            "declares parameter of intent 'go' 'n' twice"
        ),
    ])
    func aBadDeclarationSaysWhatIsWrong(kind: String, message: String) throws {
        let object = try JSONValue.parse(kind)
        #expect {
            try hello(object)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    /// A timeline's size per answer is bounded (PLUGINS.md): 25,000 entries a second cost the daemon a quarter of a
    /// core and a 900 kB record a second.
    @Test func aTimelineOfMoreThanTwoThousandEntriesIsRefused() throws {
        func timeline(entries count: Int) throws -> Timeline {
            let entries = (0..<count).map { #"{"date":\#($0),"text":"e"}"# }.joined(separator: ",")
            let reply = try JSONValue.parse(Array(#"{"entries":[\#(entries)]}"#.utf8))
            return try PluginMessages.timeline(try #require(reply.object), now: Date(timeIntervalSince1970: 0))
        }
        #expect(try timeline(entries: 2000).entries.count == 2000)
        #expect {
            try timeline(entries: 2001)
        } throws: { error in
            "\(error)".contains("a timeline of 2001 entries: at most 2000 in one answer")
        }
    }

    @Test func anotherProtocolVersionIsRefused() {
        #expect {
            try hello(["name": "k"], protocolVersion: 2)
        } throws: { error in
            "\(error)" == "speaks protocol 2; this widgetd speaks 1"
        }
    }

    @Test func requestsCarryTheConfigurationAsJSONTypes() {
        let values = IntentValues([
            "s": .string("x"), "b": .bool(true), "i": .int(3), "e": .enumCase("big"), "d": .duration(90),
        ])
        let json = PluginMessages.json(values)
        #expect(json.jsonText == #"{"b":true,"d":90,"e":"big","i":3,"s":"x"}"#)
    }

    /// A plugin's pango markup is checked as an exec script's is: well-formed it stays markup, else it is shown as
    /// text and noted.
    @Test func aPluginsMarkupIsCheckedAsAnExecScriptsIs() throws {
        func timeline(_ text: String) throws -> Timeline {
            let reply = try JSONValue.parse(
                Array(#"{"entries":[{"date":0,"text":"\#(text)","markup":"pango"}]}"#.utf8))
            return try PluginMessages.timeline(try #require(reply.object), now: Date(timeIntervalSince1970: 0))
        }
        let good = try timeline("<b>b</b> &amp; x")
        #expect(good.entries.first?.content.block?.isMarkup == true)
        #expect(good.notes.isEmpty)
        let bad = try timeline("<b>b</b> & <i>x")
        #expect(bad.entries.first?.content.block?.isMarkup == false)
        #expect(bad.notes == ["markup is not well-formed pango, shown as text: <b>b</b> & <i>x"])
    }
}
