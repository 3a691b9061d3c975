import Kind
import Output
import Providers
import Testing

@testable import Daemon

/// Which lane an instance's calls run on, decided from what its kind declares (`WidgetKind.providerProcess`,
/// `usesStore`, `answersAtOnce`) and its run mode, never from the kind's type.
@Suite("provider lanes")
struct ProviderLaneTests {
    let standard = KindRegistry.standard(store: StoreAccess(path: "/nonexistent/store.sqlite"))

    func plugin() throws -> PluginKind {
        let declaration = try PluginDeclaration.parse([
            "type": "hello", "protocol": 1, "kind": ["name": "ticker", "families": ["accessoryInline"]],
        ])
        return PluginKind(
            declaration: declaration, host: PluginHost(name: "ticker", argv: ["/bin/false"], kind: "ticker"))
    }

    @Test func aPluginKindsCallsWaitOnItsProcessInALaneOfTheirOwn() throws {
        let kind = try plugin()
        #expect(kind.providerProcess === kind.host)
        #expect(ProviderLane(runMode: kind.runMode(for: WidgetSettings()), kind: kind) == .plugins)
        // A stand-in for a plugin that failed to load has no process: its calls fail at once.
        let standIn = UnloadedPluginKind(name: "ticker", reason: "no hello")
        #expect(standIn.providerProcess == nil)
        #expect(ProviderLane(runMode: standIn.runMode(for: WidgetSettings()), kind: standIn) == .shared)
    }

    @Test(arguments: [
        ("quotes", ProviderLane.loop), ("clock", .loop), ("motivations", .store), ("todos", .store),
        ("exec", .commands), ("cpu", .loop), ("memory", .loop), ("disk", .shared), ("temperature", .shared),
    ])
    func theShippedKindsHaveNoProcessOfTheirOwn(_ name: String, lane: ProviderLane) throws {
        let kind = try #require(standard.kind(named: name))
        #expect(kind.providerProcess == nil)
        #expect(ProviderLane(runMode: kind.runMode(for: WidgetSettings()), kind: kind) == lane)
    }

    @Test func anUnknownKindRunsInTheSharedLane() {
        #expect(ProviderLane(runMode: RunMode(timeout: 5), kind: nil) == .shared)
        #expect(ProviderLane(runMode: RunMode(blocksThread: true, timeout: 5), kind: nil) == .commands)
    }
}
