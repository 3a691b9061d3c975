import Foundation
import TestSupport
import Testing

/// `widgetd check` looks up what a widget names outside the file: a motivation's id in the store.
@Suite("widgetd check looks up stored ids")
struct CheckReferenceTests {
    static func config(id: String) -> String {
        """
        widgets:
          m:
            kind: motivations
            intent:
              motivation: \(id)
          n:
            kind: motivations
            intent:
              motivation: {match: limits}

        """
    }

    @Test func anIdTheStoreLacksIsAWarningAtItsValueAndCheckCreatesNoStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = ["XDG_DATA_HOME": directory.url.path + "/data", "HOME": directory.url.path]
        let store = directory.url.path + "/data/widgetd/store.sqlite"
        let config = try directory.write("widgets.yaml", Self.config(id: "abcd1234"))

        let before = try runWidgetd(["check", "--config", config], environment: environment)
        #expect(before.status == 0, "a missing record may still be added: a warning, not an error")
        #expect(before.stdout == "2 widgets OK (1 warning)\n")
        #expect(
            before.stderr.hasPrefix(
                "\(config):5:19: warning: widget 'm': no motivation with id 'abcd1234': there is no store at \(store) yet"
            ), "\(before.stderr)")
        #expect(before.stderr.contains("      motivation: abcd1234\n                  ^"), "\(before.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store), "check never creates the store")

        let added = try runWidgetd(
            ["motivations", "add", "Keep", "going", "--config", config], environment: environment)
        let id = try #require(added.stdout.split(separator: " ").dropFirst().first.map(String.init), "\(added.stdout)")
        try #require(id.count == 8, "\(added.stdout)")

        let found = try runWidgetd(
            ["check", "--config", try directory.write("widgets.yaml", Self.config(id: id))], environment: environment)
        #expect(found.stdout == "2 widgets OK\n" && found.stderr.isEmpty, "\(found.stderr)")

        // One character off: the warning suggests the stored id.
        let typo = String(id.dropLast()) + (id.last == "0" ? "1" : "0")
        let mistyped = try runWidgetd(
            ["check", "--config", try directory.write("widgets.yaml", Self.config(id: typo))], environment: environment)
        #expect(mistyped.stdout == "2 widgets OK (1 warning)\n")
        #expect(
            mistyped.stderr.contains("warning: widget 'm': no motivation with id '\(typo)'; did you mean '\(id)'"),
            "\(mistyped.stderr)")
    }
}
