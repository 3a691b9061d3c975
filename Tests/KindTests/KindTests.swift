import Foundation
import Kind
import Testing
import Timelines

/// A kind that declares only what every kind must, so that the rest is the protocol's defaults.
private struct PlainKind: WidgetKind {
    let name = "plain"
    let displayName = "Plain"
    let summary = "Declares only what a kind must."
    let families: [Family] = [.systemSmall]
    let parameters = [
        ParameterSpec("count", displayName: "Count", type: .int(1...10), default: .int(3)),
        ParameterSpec("label", displayName: "Label", type: .string),
        ParameterSpec(
            "mode", displayName: "Mode", type: .enumeration([EnumCase("fast", displayName: "Fast")]),
            default: .enumCase("fast")),
    ]

    func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "…")
    }

    func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        TimelineEntry(date: context.now, content: EntryContent(text: "plain"))
    }

    func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        Timeline(entries: [try await snapshot(for: configuration, in: context)], policy: .never)
    }
}

/// The kind boundary's own types, with no kind of the program's: a kind's defaults, the registry, the names and
/// buttons every kind shares.
@Suite("the kind boundary")
struct KindTests {
    @Test func aKindThatDeclaresNoMoreThanItMustRunsInProcessWithNoIntentStoreOrProcess() {
        let kind = PlainKind()
        #expect(kind.intents.isEmpty && kind.intent(named: "poke") == nil)
        #expect(!kind.acceptsAnyParameter && !kind.acceptsAnyIntent)
        #expect(kind.parameterExport == nil)
        #expect(kind.widgetKeys.isEmpty && kind.widgetKey(named: "interval") == nil)
        #expect(kind.runMode(for: WidgetSettings()) == .inProcess)
        #expect(!kind.usesStore)
        #expect(kind.keepsEntryAcrossRestarts)
        #expect(!kind.showsWholeTextWithoutFamily)
        #expect(kind.nextScheduledReload(after: Date(timeIntervalSince1970: 0), settings: WidgetSettings()) == nil)
        #expect(kind.providerProcess == nil && kind.notLoadedReason == nil && kind.provider == nil)
        #expect(MouseButton.allCases.allSatisfy { kind.defaultIntent(for: $0) == nil })
        #expect(kind.referenceProblems(in: IntentValues(["label": .string("x")])).isEmpty)
    }

    @Test func aFreshConfigurationHoldsEveryDefaultAndNothingForAParameterWithout() {
        let kind = PlainKind()
        #expect(kind.defaultConfiguration == IntentValues(["count": .int(3), "mode": .enumCase("fast")]))
        #expect(kind.parameter(named: "label")?.displayName == "Label")
        #expect(kind.parameter(named: "colour") == nil)
    }

    @Test func intentValuesAnswerOnlyForTheTypeAValueHas() {
        var values = IntentValues(["count": .int(3), "label": .string("3")])
        #expect(values.int("count") == 3 && values.string("count") == nil && values.bool("count") == nil)
        #expect(values.string("label") == "3" && values.int("label") == nil)
        #expect(values.enumCase("mode") == nil)
        values["mode"] = .enumCase("slow")
        #expect(values.enumCase("mode") == "slow" && values["mode"] == .enumCase("slow"))
    }

    @Test func theRegistryFindsAKindByItsNameOnly() {
        let registry = KindRegistry([PlainKind()], unavailable: ["broken": "exited before its hello"])
        #expect(registry.names == ["plain"])
        #expect(registry.kind(named: "plain")?.displayName == "Plain")
        #expect(registry.kind(named: "Plain") == nil && registry.kind(named: "broken") == nil)
        #expect(registry.unavailable["broken"] == "exited before its hello")
    }

    @Test(arguments: [
        ("cpu", true), ("cpu-0_A", true), (String(repeating: "a", count: 64), true),
        (String(repeating: "a", count: 65), false), ("", false), ("-cpu", false), ("c pu", false), ("cpu.plain", false),
        ("café", false), ("a/b", false),
    ])
    func instanceNames(name: String, valid: Bool) {
        #expect((InstanceName.problem(name) == nil) == valid, "\(name): \(InstanceName.problem(name) ?? "fine")")
    }

    @Test func buttonsAreNumberedAsBarsNumberThem() {
        #expect(MouseButton.allCases.map(\.number) == [1, 2, 3, 4, 5])
        for button in MouseButton.allCases { #expect(MouseButton(number: button.number) == button) }
        #expect(MouseButton(number: 0) == nil && MouseButton(number: 6) == nil)
        #expect(MouseButton(rawValue: "scroll-down") == .scrollDown)
    }
}
