import Foundation
import Testing

@testable import Formats

/// The JSON value that replaced JSONSerialization for scripts and plugins (issue 15: no ICU in the daemon).
@Suite("JSON values: parsing and writing")
struct JSONValueTests {
    @Test func aDocumentParsesIntoTypedValues() throws {
        let value = try JSONValue.parse(
            #" {"s": "a\"b\\c\/d\u00e9\ud83d\ude00", "n": -12.5e1, "i": 4, "t": true, "f": false, "z": null,"#
                + #" "a": [1, "x", {}], "o": {"k": []}} "#)
        #expect(value["s"]?.string == "a\"b\\c/dé😀")
        #expect(value["n"]?.number == -125)
        #expect(value["i"]?.int == 4)
        #expect(value["t"]?.bool == true && value["f"]?.bool == false)
        #expect(value["z"] == .null)
        #expect(value["a"]?.array?.count == 3)
        #expect(value["a"]?.strings == nil, "a mixed array is not an array of strings")
        #expect(value["o"]?["k"] == .array([]))
        #expect(value["missing"] == nil)
    }

    @Test func numbersAndBooleansStayApart() throws {
        let value = try JSONValue.parse(#"{"b": true, "one": 1, "half": 0.5, "big": 1e300, "whole": 4.0}"#)
        #expect(value["b"]?.number == nil, "true is no number")
        #expect(value["one"]?.bool == nil)
        #expect(value["half"]?.int == nil)
        #expect(value["big"]?.int == nil, "a number past Int's range is no Int, and does not trap")
        #expect(value["whole"]?.int == 4)
    }

    /// Each case: text that is not JSON, and what the error must say.
    @Test(arguments: [
        ("{oops", "expected a string key at byte 1"), ("", "unexpected end of the text at byte 0"),
        (#"{"a": 1,}"#, "expected a string key"), (#"{"a" 1}"#, "expected ':'"), ("[1 2]", "expected ',' or ']'"),
        (#"{"a": 1} x"#, "unexpected text after the value"), ("[01]", "leading zero"), ("[1.]", "digits after '.'"),
        ("[1e]", "exponent"), ("[1e999]", "too large"), (#"["\x"]"#, "unknown escape"), (#"["\ud800"]"#, "unpaired"),
        ("[\"a\u{1}\"]", "control character"), (#"["\u12"]"#, "four hex digits"), ("[tru]", "unexpected 't'"),
        ("[-]", "needs digits"), ("[\"abc", "unterminated"), ("nul", "unexpected 'n'"), ("{\"a\":", "end of the text"),
    ])
    func badTextSaysWhatIsWrongAndWhere(_ text: String, _ fragment: String) {
        #expect {
            try JSONValue.parse(text)
        } throws: { error in
            "\(error)".contains(fragment)
        }
    }

    @Test func invalidUTF8InAStringIsRefused() {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse([0x22, 0xFF, 0x22]) }
    }

    @Test func nestingPastTheLimitIsRefusedNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(deep) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(try JSONValue.parse(fine).array?.count == 1)
    }

    /// What JSONSerialization read, for texts a script or plugin may send: the same values. (Booleans are left out:
    /// on Linux it reads them as NSNumbers, which this comparison cannot tell from 1 and 0.)
    @Test(arguments: [
        #"{"entries": [{"text": "a", "date": 1800000000, "percentage": 42.6}], "policy": {"after": 1.5}}"#,
        #"{"a": "\u00fc\n\t", "b": ["t", null], "c": -0.0, "d": 1E+2, "e": {"f": {}}}"#,
        #"{"dup": 1, "dup": 2}"#, #"[]"#, #"{"x": "Don’t / stop"}"#,
    ])
    func parsingAgreesWithJSONSerialization(_ text: String) throws {
        let ours = try JSONValue.parse(text)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect(ours == Self.value(theirs))
    }

    /// JSONSerialization's `[.sortedKeys]` output, slashes aside (it wrote `\/`, which every JSON reader reads as `/`).
    @Test func writingAgreesWithJSONSerializationSortedKeys() throws {
        let value: JSONValue = [
            "type": "timeline", "path": "a/b", "now": 1_800_000_000.25, "id": 7, "preview": false, "current": nil,
            "configuration": ["s": "x\"y\\z\n\u{1}é", "d": 90, "e": ["match": "a"]], "list": [1, 2.5, "three"],
        ]
        let theirs = try JSONSerialization.data(withJSONObject: Self.object(value), options: [.sortedKeys])
        #expect(value.jsonText == String(decoding: theirs, as: UTF8.self).replacingOccurrences(of: #"\/"#, with: "/"))
        #expect(value.jsonText.contains(#""path":"a/b""#))
        #expect(try JSONValue.parse(value.serialized()) == value, "what it writes reads back the same")
    }

    @Test func aValueDescribesItselfAsAMessageQuotesIt() {
        #expect("\(JSONValue("soon"))" == "soon")
        #expect("\(JSONValue(4))" == "4")
        #expect("\(JSONValue(2.5))" == "2.5")
        #expect("\(JSONValue.array([true, nil]))" == "[true,null]")
    }

    private static func value(_ any: Any) -> JSONValue {
        switch any {
        case let text as String: return .string(text)
        case let number as NSNumber: return .number(number.doubleValue)
        case let array as [Any]: return .array(array.map(value))
        case let object as [String: Any]: return .object(object.mapValues(value))
        default: return .null
        }
    }

    private static func object(_ value: JSONValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .number(let number): return number.rounded() == number ? Int(number) as Any : number
        case .string(let text): return text
        case .array(let elements): return elements.map(object)
        case .object(let members): return members.mapValues(object)
        }
    }
}
