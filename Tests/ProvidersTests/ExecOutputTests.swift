import Foundation
import Testing
import Timelines

@testable import Providers

@Suite("exec output")
struct ExecOutputTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func result(_ text: String, status: Int32 = 0) -> CommandResult {
        CommandResult(output: Array(text.utf8), truncated: false, exitStatus: status, errorOutput: "")
    }

    @Test func i3blocksLinesGiveTextShortTextAndColours() throws {
        let timeline = try ExecOutput.timeline(
            from: result("full\nshort\n#00FF00\n#111111\n"), now: now, defaultPolicy: .never)
        let content = try #require(timeline.entries.first).content
        #expect(content.text == "full")
        #expect(content.shortText == "short")
        #expect(content.foreground == Color(hex: "#00ff00"))
        #expect(content.background == Color(hex: "#111111"))
        #expect(timeline.policy == .never)
    }

    @Test func emptyShortTextLineKeepsTheColourInPlace() throws {
        let content = try #require(
            try ExecOutput.timeline(from: result("label\n\n#0000FF\n"), now: now, defaultPolicy: .never).entries.first
        ).content
        #expect(content.shortText == nil)
        #expect(content.foreground == Color(hex: "#0000ff"))
    }

    @Test func invalidUTF8IsRepairedNotDropped() throws {
        let bytes: [UInt8] = Array("ok ".utf8) + [0xFF, 0xFE] + Array(" done\n".utf8)
        let timeline = try ExecOutput.timeline(
            from: CommandResult(output: bytes, truncated: false, exitStatus: 0, errorOutput: ""), now: now,
            defaultPolicy: .never)
        #expect(timeline.entries.first?.content.text.hasPrefix("ok ") == true)
        #expect(timeline.entries.first?.content.text.hasSuffix(" done") == true)
    }

    @Test func aJSONTimelineWithAfterPolicyAndLiveDates() throws {
        let json = """
            {"entries": [
              {"date": "2027-01-15T08:00:00+00:00", "text": "first", "color": "#ff0000"},
              {"date": 1800000060, "text": "tea {date}", "timer": 1800000360, "urgent": true}
            ], "policy": {"after": "2027-01-15T09:00:00Z"}}
            """
        let timeline = try ExecOutput.timeline(from: result(json), now: now, defaultPolicy: .never)
        #expect(timeline.entries.map(\.content.text) == ["first", "tea {date}"])
        #expect(timeline.entries[1].date == now.addingTimeInterval(60))
        #expect(timeline.entries[1].content.state == .urgent)
        #expect(timeline.entries[1].content.dynamicDate == DynamicDate(now.addingTimeInterval(360), style: .timer))
        #expect(timeline.policy == .after(now.addingTimeInterval(3600)))
    }

    @Test func aPercentageReachesWaybarWithinZeroToAHundred() throws {
        let json = """
            {"entries": [{"text": "a", "percentage": 42.6}, {"text": "b", "percentage": -3, "date": 1800000001},
              {"text": "c", "percentage": true, "date": 1800000002}, {"text": "d", "date": 1800000003},
              {"text": "e", "percentage": 1e300, "date": 1800000004}, {"text": "f", "percentage": -1e300, "date": 1800000005}]}
            """
        let timeline = try ExecOutput.timeline(from: result(json), now: now, defaultPolicy: .never)
        #expect(timeline.entries.map(\.content.percentage) == [43, 0, nil, nil, 100, 0])
    }

    @Test(arguments: [
        #"{"entries": [{"text": "t", "timer": 1e300}]}"#, #"{"entries": [{"text": "t", "date": -1e300}]}"#,
        #"{"entries": [{"text": "t"}], "policy": {"after": 1e300}}"#,
        #"{"entries": [{"text": "t", "relative": "99999-01-01T00:00:00Z"}]}"#,
    ])
    func datesFarOutOfRangeAreRefusedNotTrapped(_ json: String) {
        #expect(throws: (any Error).self) {
            try ExecOutput.timeline(from: result(json), now: now, defaultPolicy: .never)
        }
    }

    @Test func anI3barBlockObjectIsOneEntry() throws {
        let timeline = try ExecOutput.timeline(
            from: result(#"{"full_text": "json block", "short_text": "jb"}"#), now: now, defaultPolicy: .atEnd)
        #expect(timeline.entries.first?.content.text == "json block")
        #expect(timeline.policy == .atEnd)
    }

    @Test(arguments: [
        (#"{"entries": []}"#, "needs \"entries\""), (#"{"entries": [{"text": 1}]}"#, "no \"text\" string"),
        (#"{"entries": [{"text": "a", "date": "soon"}]}"#, "is not a date"),
        (#"{"entries": [{"text": "a", "date": "1796215554"}]}"#, "or epoch seconds as a JSON number, without quotes"),
        (#"{"entries": [{"text": "a"}], "policy": "sometimes"}"#, "\"policy\" must be"), ("{oops", "does not parse"),
        ("{oops", "expected a string key at byte 1"), (#"{"entries": [{"text": "a", "date": true}]}"#, "is not a date"),
        (#"{"entries": [{"text": "a"}]} trailing"#, "unexpected text after the value"),
        (#"{"entries": [{"text": "a", "class": ["x", 1]}], "policy": 5}"#, "\"policy\" must be"),
        (String(repeating: "{\"a\":", count: 10_000), "nested deeper than 512"),
    ])
    func badJSONSaysWhatIsWrong(_ json: String, _ fragment: String) {
        #expect {
            try ExecOutput.timeline(from: result(json), now: now, defaultPolicy: .never, format: .json)
        } throws: { error in
            "\(error)".contains(fragment)
        }
    }

    /// i3blocks scripts print text that starts with a brace (`{VPN} up`, a JSON-looking status): without `format:`,
    /// only a JSON timeline or i3bar block is read as JSON; with `format: raw`, nothing is.
    @Test func textStartingWithABraceIsALineUnlessItIsATimeline() throws {
        func shown(_ output: String, _ format: ExecSettings.Format) throws -> String? {
            try ExecOutput.timeline(from: result(output), now: now, defaultPolicy: .never, format: format).entries
                .first?.content.text
        }
        #expect(try shown("{VPN} up\n", .detected) == "{VPN} up")
        #expect(try shown(#"{"a":1}"# + "\n", .detected) == #"{"a":1}"#)
        #expect(try shown(#"{"full_text":"block"}"#, .detected) == "block")
        #expect(try shown(#"{"entries":[{"text":"t"}]}"#, .detected) == "t")
        #expect(try shown(#"{"full_text":"block"}"#, .raw) == #"{"full_text":"block"}"#)
        #expect(throws: (any Error).self) { try shown("{VPN} up\n", .json) }
    }

    /// A script relaying text written on Windows (or an HTTP API) ends its lines in CR LF: still four lines.
    @Test func linesEndingInCRLFAreTheirOwnLines() throws {
        let content = try #require(
            try ExecOutput.timeline(from: result("12%\r\n12\r\n#FF0000\r\n"), now: now, defaultPolicy: .never).entries
                .first?.content)
        #expect(content.text == "12%")
        #expect(content.shortText == "12")
        #expect(content.foreground == Color(hex: "#FF0000"))
        #expect {
            try ExecOutput.timeline(
                from: CommandResult(output: [], truncated: false, exitStatus: 1, errorOutput: "no battery\r\nmore"),
                now: now, defaultPolicy: .never)
        } throws: { error in
            "\(error)" == "exited with status 1: no battery"
        }
    }

    @Test func aNonZeroExitIsAFailureNamingTheFirstErrorLine() {
        #expect {
            try ExecOutput.timeline(
                from: CommandResult(output: [], truncated: false, exitStatus: 3, errorOutput: "no battery\nmore"),
                now: now, defaultPolicy: .never)
        } throws: { error in
            "\(error)" == "exited with status 3: no battery"
        }
    }

    @Test func parameterNamesBecomeEnvironmentNames() {
        #expect(ExecKind.environmentName("max-load") == "MAX_LOAD")
        #expect(ExecKind.environmentName("city") == "CITY")
    }
}

@Suite("exec environment")
struct ExecEnvironmentTests {
    /// As i3blocks 1.5 exports a block's keys: every name under itself too (`max-load`, `T.WARN` for a script that
    /// reads its environment by name), but not the names widgetd sets itself or one an environment cannot hold.
    @Test(arguments: [
        ("LABEL", true), ("T_WARN", true), ("_private", true), ("label2", true), ("max-load", true), ("T.WARN", true),
        ("", false), ("A=B", false), ("WIDGETD_INSTANCE", false), ("BLOCK_BUTTON", false),
    ])
    func parametersAreExportedUnderTheirOwnNames(_ name: String, _ exported: Bool) {
        #expect(ExecKind.isExportedUnderItsOwnName(name) == exported)
    }

    @Test func intervalsReadAsI3blocksWritesThem() {
        #expect(ExecSettings(command: ["x"], interval: 30).intervalText == "30")
        #expect(ExecSettings(command: ["x"], interval: 0.5).intervalText == "0.5")
        #expect(ExecSettings(command: ["x"], isPersistent: true).intervalText == "persist")
        #expect(ExecSettings(command: ["x"]).intervalText == "once")
    }
}
