import Config
import Foundation
import TestSupport
import Testing

/// The CLI reads `settings:` and a section of the kinds' (`plugins:`) before the full check; the file is parsed once
/// for all three, and an edit in between is never answered from the earlier parse.
@Suite("widgets.yaml parsed once per process")
struct ConfigParsedOnceTests {
    @Test func theFullCheckAfterTheSettingsSeesTheSameFile() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("widgets.yaml")
        try "settings:\n  store: /tmp/a.sqlite\nwidgets:\n  one:\n    kind: sample\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(ConfigLoader.settings(path: path).store == "/tmp/a.sqlite")
        #expect(ConfigLoader.section(LimitsSection(), path: path) == nil)
        let loaded = ConfigLoader.load(path: path, registry: .sample)
        #expect(loaded.configuration?.widgets.map(\.name) == ["one"])
        #expect(loaded.configuration?.settings.store == "/tmp/a.sqlite")
    }

    @Test func anEditAfterTheSettingsIsCheckedAsItIsNow() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("widgets.yaml")
        try "widgets:\n  one:\n    kind: sample\n".write(toFile: path, atomically: true, encoding: .utf8)
        _ = ConfigLoader.settings(path: path)
        try "widgets:\n  two:\n    kind: sampel\n".write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = ConfigLoader.load(path: path, registry: .sample)
        #expect(loaded.configuration == nil)
        #expect(
            loaded.diagnostics.map { "\($0.mark?.line ?? 0):\($0.message)" }.first?.hasPrefix("3:unknown kind 'sampel'")
                == true)
        // And fixed again: the failed check kept nothing that could stand in for the file.
        try "widgets:\n  three:\n    kind: sample\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(ConfigLoader.load(path: path, registry: .sample).configuration?.widgets.map(\.name) == ["three"])
    }
}
