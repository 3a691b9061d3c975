import Foundation
import Kind
import Testing
import Timelines

@testable import Providers

/// What a widget's run printed reaches its next run, as i3blocks 1.5 keeps a block's properties: kept by the exec
/// kind's value, per widget.
@Suite("exec: printed properties")
struct PrintedPropertiesTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Prints `$running` and then `running` one more, as i3blocks-contrib's timer keeps its state.
    func run(_ kind: ExecKind, as instance: String) async throws -> String? {
        let script = #"echo "{\"full_text\": \"was ${running:-none}\", \"running\": $(( ${running:-0} + 1 ))}""#
        let context = ProviderContext(
            instance: instance, family: .systemSmall, now: now,
            settings: WidgetSettings(["command": .command(["/bin/sh", "-c", script])]))
        return try await kind.timeline(for: IntentValues(), in: context).entries.first?.content.text
    }

    @Test func aRunGetsWhatItsWidgetsLastRunPrinted() async throws {
        let kind = ExecKind(environment: ["PATH": "/usr/bin:/bin"])
        #expect(try await run(kind, as: "timer") == "was none")
        #expect(try await run(kind, as: "timer") == "was 1")
        #expect(try await run(kind, as: "timer") == "was 2")
        // Another widget, and the same widget under another exec kind value, start from nothing.
        #expect(try await run(kind, as: "other") == "was none")
        #expect(try await run(ExecKind(environment: ["PATH": "/usr/bin:/bin"]), as: "timer") == "was none")
    }

    @Test func aRunThatSetsNoPropertyKeepsTheLastOnes() {
        let printed = PrintedProperties()
        let json = CommandResult(
            output: Array(#"{"full_text": "a", "running": 1}"#.utf8), truncated: false, exitStatus: 0, errorOutput: "")
        printed.remember(json, format: .detected, for: "w")
        // A JSON timeline sets no block property.
        let timeline = CommandResult(
            output: Array(#"{"entries": [{"text": "b"}]}"#.utf8), truncated: false, exitStatus: 0, errorOutput: "")
        printed.remember(timeline, format: .detected, for: "w")
        #expect(printed.recalled(for: "w") == ["full_text": "a", "running": "1"])
        #expect(printed.recalled(for: "v").isEmpty)
    }
}
