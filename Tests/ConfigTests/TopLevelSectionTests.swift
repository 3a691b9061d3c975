import Config
import Kind
import Testing

/// A top-level section the registry's kinds read (`KindRegistry.sections`): the checker hands it its node, keeps its
/// value by key, and places its mistakes as it places its own.
@Suite("top-level sections of the kinds")
struct TopLevelSectionTests {
    func load(_ text: String, registry: KindRegistry = .sampleWithLimits) -> ConfigLoadResult {
        ConfigLoader.load(bytes: Array(text.utf8), file: "widgets.yaml", registry: registry)
    }

    @Test func theSectionsValueIsKeptByItsKey() throws {
        let configuration = try #require(
            load("limits:\n  a: 3\n  b: 5\nwidgets:\n  w:\n    kind: sample\n").configuration)
        #expect(configuration.section(LimitsSection()) == ["a": 3, "b": 5])
        let without = try #require(load("widgets:\n  w:\n    kind: sample\n").configuration)
        #expect(without.section(LimitsSection()) == nil)
    }

    @Test func theSectionsMistakesArePlacedInTheFile() {
        let result = load("widgets:\n  w:\n    kind: sample\nlimits:\n  a: 3\n  b: many\n")
        #expect(result.configuration == nil)
        #expect(result.diagnostics.map(\.message) == ["'b' must be a number, found 'many'"])
        #expect(result.diagnostics.map(\.mark?.line) == [6])
        #expect(result.diagnostics.map(\.mark?.column) == [6])
    }

    /// The key is the registry's: without the section it is an unknown key, and the keys listed are the registry's.
    @Test func unknownKeysListTheRegistrysSections() {
        #expect(ConfigSchema.topLevelKeys(in: .sampleWithLimits) == ["settings", "widgets", "bars", "limits"])
        let unread = load("limits: {}\nwidgets: {}\n", registry: .sample)
        #expect(
            unread.diagnostics.map(\.message) == [
                "unknown top-level key 'limits'; expected 'settings', 'widgets', 'bars' or an 'x-' key of your own"
            ])
        let typo = load("limit: {}\nwidgets: {}\n")
        #expect(
            typo.diagnostics.map(\.message) == [
                "unknown top-level key 'limit'; did you mean 'limits'? expected 'settings', 'widgets', 'bars', "
                    + "'limits' or an 'x-' key of your own"
            ])
    }

    /// Read early, before the kinds are known: the section's valid part, whatever else is wrong with the file.
    @Test func theEarlyReadTakesTheValidPart() {
        let text = "limits:\n  a: 3\n  b: many\nwidgets:\n  w:\n    kind: nonesuch\n"
        #expect(ConfigLoader.section(LimitsSection(), bytes: Array(text.utf8)) == ["a": 3])
        #expect(ConfigLoader.section(LimitsSection(), bytes: Array("widgets: {}\n".utf8)) == nil)
    }
}
