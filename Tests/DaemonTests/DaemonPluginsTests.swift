import Formats
import Foundation
import Kind
import Testing

@testable import Daemon
@testable import Providers

/// `DaemonPlugins` on its own: which kinds stand in for what, and when a failed plugin is tried again.
@Suite("daemon plugins")
struct DaemonPluginsTests {
    private static func failed(_ name: String, lastKind: String? = nil) -> FoundPlugin {
        FoundPlugin(
            source: PluginSource(name: name, argv: ["/bin/false"], origin: "widgets.yaml"),
            error: "exited before its hello",
            lastKind: lastKind)
    }

    private static func loaded(_ name: String, kind: String) throws -> FoundPlugin {
        let hello = try #require(
            try JSONValue.parse(Array(#"{"type":"hello","protocol":1,"kind":{"name":"\#(kind)"}}"#.utf8)).object)
        return FoundPlugin(
            source: PluginSource(name: name, argv: ["/bin/false"], origin: "widgets.yaml"),
            declaration: try PluginDeclaration.parse(hello))
    }

    @Test func aStandInNamesThePluginByItsNameOrTheKindItLastDeclared() {
        let start = Date(timeIntervalSince1970: 1000)
        let plugins = DaemonPlugins(
            standard: KindRegistry([]), found: [Self.failed("slow", lastKind: "tomato"), Self.failed("other")],
            now: start)
        #expect(plugins.reason(for: "tomato") == "plugin 'slow' (widgets.yaml) failed to load: exited before its hello")
        #expect(plugins.reason(for: "other") == "plugin 'other' (widgets.yaml) failed to load: exited before its hello")
        #expect(plugins.reason(for: "typo").hasPrefix("no plugin that loaded provides it, and plugin 'other'"))
        let registry = plugins.registry(standingInFor: ["tomato"])
        #expect(registry.kind(named: "tomato") is UnloadedPluginKind)
        #expect(plugins.registry.kind(named: "tomato") == nil, "the stand-ins are not the daemon's kinds")
    }

    @Test func withNoFailedPluginNothingIsRetried() throws {
        let plugins = DaemonPlugins(standard: KindRegistry([]), found: [try Self.loaded("p", kind: "p")], now: Date())
        #expect(plugins.retryDue == nil)
        #expect(plugins.reason(for: "typo") == "no plugin provides it")
    }

    @Test func failedPluginsAreTriedAgainAtOnceThenLessAndLessOften() throws {
        let start = Date(timeIntervalSince1970: 1000)
        var plugins = DaemonPlugins(standard: KindRegistry([]), found: [Self.failed("slow")], now: start)
        var now = start
        #expect(plugins.retryDue == start)
        var delays: [TimeInterval] = []
        for _ in 0..<8 {
            #expect(plugins.retryStarted() == ["slow"])
            #expect(plugins.retryDue == nil, "no second try while one runs")
            _ = plugins.retried([Self.failed("slow")], now: now)
            let due = try #require(plugins.retryDue)
            delays.append(due.timeIntervalSince(now))
            now = due
        }
        #expect(delays == [10, 20, 40, 80, 160, 300, 300, 300])
        _ = plugins.retryStarted()
        let loaded = plugins.retried([try Self.loaded("slow", kind: "slowkind")], now: now).loaded
        #expect(loaded.map(\.name) == ["slowkind"])
        #expect(plugins.failed.isEmpty && plugins.retryDue == nil)
        #expect(plugins.registry.kind(named: "slowkind") != nil)
    }

    @Test func aPluginThatLoadsWithAKindAlreadyTakenIsRefusedAndNotTriedAgain() throws {
        var plugins = DaemonPlugins(
            standard: KindRegistry([]), found: [try Self.loaded("first", kind: "k"), Self.failed("second")],
            now: Date())
        _ = plugins.retryStarted()
        let retried = plugins.retried([try Self.loaded("second", kind: "k")], now: Date())
        #expect(retried.loaded.isEmpty)
        #expect(retried.refused.map(\.error) == ["declares kind 'k', which another kind already has"])
        #expect(plugins.failed.isEmpty && plugins.retryDue == nil)
    }

    /// A kind that loaded while the running config could not be checked again (widgets.yaml had errors) stays a
    /// stand-in, saying so, until a good check: the stand-ins come first.
    @Test func aKindLoadedSinceStaysAStandInUntilTheConfigIsChecked() throws {
        var plugins = DaemonPlugins(
            standard: KindRegistry([]), found: [Self.failed("slow"), Self.failed("other")], now: Date())
        _ = plugins.retryStarted()
        _ = plugins.retried([try Self.loaded("slow", kind: "slow"), Self.failed("other")], now: Date())
        let registry = plugins.registry(standingInFor: ["slow"])
        let standIn = try #require(registry.kind(named: "slow") as? UnloadedPluginKind)
        #expect(standIn.reason.hasPrefix("its plugin has loaded since"))
        #expect(plugins.registry.kind(named: "slow") is PluginKind, "checked with the real kind")
    }

    /// A clash found at the start is no failure to try again either.
    @Test func aClashAtTheStartIsNotTriedAgain() throws {
        var clash = try Self.loaded("second", kind: "k")
        clash.declaration = nil
        clash.isClash = true
        let plugins = DaemonPlugins(standard: KindRegistry([]), found: [clash], now: Date())
        #expect(plugins.failed.isEmpty && plugins.retryDue == nil)
    }

    @Test func aPluginGoneSinceIsNotTriedAgain() {
        var plugins = DaemonPlugins(standard: KindRegistry([]), found: [Self.failed("gone")], now: Date())
        _ = plugins.retryStarted()
        _ = plugins.retried([], now: Date())
        #expect(plugins.failed.isEmpty && plugins.retryDue == nil)
    }
}
