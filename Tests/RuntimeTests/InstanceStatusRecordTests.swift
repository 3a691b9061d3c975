import Foundation
import Testing

@testable import Runtime

/// The status file the daemon writes for each widget and the CLI reads (`InstanceStatusRecord`).
@Suite("a widget's status file")
struct InstanceStatusRecordTests {
    /// The status file, written by hand, is what JSONEncoder writes with sorted keys (slashes aside), with or without
    /// its optional fields, whatever its text holds.
    @Test(arguments: [
        #"{"reloading":true}"#,
        #"{"policy":"after 2033-05-18T05:33:20+02:00","nextReload":"2033-05-18T05:33:20+02:00","reloading":false,"#
            + #""lastError":"q: \"quoted\" back\\slash\nnew line\ttab\u0001\u001f é ✓ /path/to"}"#,
        #"{"policy":"never","reloading":false,"lastError":""}"#,
        #"{"policy":"after","reloading":false,"reloadsWithPolicy":true}"#,
    ])
    func aStatusFileIsWhatJSONEncoderWrites(_ json: String) throws {
        let record = try JSONDecoder().decode(InstanceStatusRecord.self, from: Data(json.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(record), as: UTF8.self)
        #expect(String(decoding: record.encoded(), as: UTF8.self) == expected)
        #expect(try JSONDecoder().decode(InstanceStatusRecord.self, from: Data(record.encoded())) == record)
    }
}
