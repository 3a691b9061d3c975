import Config
import Control
import Foundation
import Kind
import Testing
import Timelines

@testable import Daemon

/// A kind with a left-click intent taking a parameter, so the dispatcher is tested without the shipped kinds.
private struct TapKind: WidgetKind {
    let name = "tap"
    let displayName = "Tap"
    let summary = "A kind for dispatcher tests."
    let families: [Family] = [.systemSmall]
    let parameters: [ParameterSpec] = []
    let intents = [
        IntentSpec(
            "toggle", summary: "Toggles.", parameters: [ParameterSpec("title", displayName: "Title", type: .string)])
    ]

    func defaultIntent(for button: MouseButton) -> String? { button == .left ? "toggle" : nil }

    func placeholder(in context: ProviderContext) -> EntryContent { EntryContent(text: "…") }

    func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        TimelineEntry(date: context.now, content: EntryContent(text: "tap"))
    }

    func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        Timeline(entries: [try await snapshot(for: configuration, in: context)], policy: .never)
    }
}

/// A kind that binds no button, for clicks on nothing at all.
private struct StillKind: WidgetKind {
    let name = "still"
    let displayName = "Still"
    let summary = "A kind that binds no button."
    let families: [Family] = [.systemSmall]
    let parameters: [ParameterSpec] = []
    let intents: [IntentSpec] = []

    func placeholder(in context: ProviderContext) -> EntryContent { EntryContent(text: "…") }

    func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        TimelineEntry(date: context.now, content: EntryContent(text: "still"))
    }

    func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        Timeline(entries: [try await snapshot(for: configuration, in: context)], policy: .never)
    }
}

/// Control lines become requests (`RequestDispatcher`), with no daemon, FIFO or provider thread: only an engine
/// holding the widgets and the kinds.
@Suite("the request dispatcher: control lines to requests, bad lines logged and dropped")
struct RequestDispatcherTests {
    private static let dispatcher = RequestDispatcher(registry: KindRegistry([TapKind()]))
    private static let tap = WidgetInstance(name: "tap", kind: "tap", family: .systemSmall)
    private static let opener = WidgetInstance(
        name: "opener", kind: "tap", family: .systemSmall, onClick: [.right: .command(["xdg-open", "https://x"])])
    private static let orphan = WidgetInstance(name: "orphan", kind: "gone", family: .systemSmall)
    private static let engine = Engine(
        instances: [tap, opener, orphan], placeholders: [:], now: Date(timeIntervalSince1970: 2_000_000_000))

    private static func requests(_ line: String) -> [DaemonRequest] {
        dispatcher.requests(for: .line(line), in: engine)
    }

    private static func token(_ text: String) throws -> ControlCommand.AckToken {
        try #require(ControlCommand.AckToken(text))
    }

    @Test func reloadsNameTheirTargetAndCarryTheirToken() throws {
        #expect(Self.requests("reload all") == [.reload(.all, acknowledgement: nil, line: "reload all")])
        #expect(
            Self.requests("reload kind tap ack=t1")
                == [.reload(.kind("tap"), acknowledgement: try Self.token("t1"), line: "reload kind tap ack=t1")])
        // Whether a name is a widget is the engine's to say when the reload is asked (`Daemon.request`).
        #expect(
            Self.requests("reload nowhere") == [
                .reload(.instance("nowhere"), acknowledgement: nil, line: "reload nowhere")
            ])
        #expect(Self.requests("config ack=c") == [.reloadConfiguration(acknowledgement: try Self.token("c"))])
    }

    @Test func aClickRunsTheKindsIntentWithWhereItLanded() throws {
        let requests = Self.requests("click tap 1 30 120 x=5 modifiers=Shift ack=k")
        var invocation = IntentInvocation(
            intent: "toggle",
            click: ClickLocation(
                button: .left, relativeX: 30, width: 120, x: 5, y: nil, relativeY: nil, height: nil,
                modifiers: ["Shift"]))
        invocation.parameters = try TapKind().intentParameters([], for: try #require(TapKind().intent(named: "toggle")))
        #expect(
            requests == [
                .log(.debug, "tap: left click runs toggle", limited: false),
                .performClick(invocation, on: Self.tap, acknowledgement: try Self.token("k")),
            ])
    }

    @Test func aClickBoundToACommandStartsIt() {
        #expect(
            Self.requests("click opener 3")
                == [.startCommand(["xdg-open", "https://x"], instance: "opener", button: .right, acknowledgement: nil)])
    }

    /// Issue 37, item 4: `click --wait` exited 0 for a click that did nothing.
    @Test func aClickOnNothingBoundFailsItsAcknowledgementWithTheReason() throws {
        let reason = "tap: nothing is bound to the middle button (bound: left)"
        #expect(
            Self.requests("click tap 2 ack=m")
                == [
                    .log(.info, reason + "; click dropped", limited: true),
                    .acknowledge(try Self.token("m"), failure: reason),
                ])
    }

    /// A widget whose kind binds no button and whose config binds none: the reason says no button does anything, and
    /// a click without `--wait` is only logged.
    @Test func aClickOnAWidgetWithNothingBoundAtAllSaysSo() throws {
        let still = WidgetInstance(name: "still", kind: "still", family: .systemSmall)
        let dispatcher = RequestDispatcher(registry: KindRegistry([StillKind()]))
        let engine = Engine(instances: [still], placeholders: [:], now: Date(timeIntervalSince1970: 2_000_000_000))
        let reason = "still: nothing is bound to the left button (nor to any other ('on_click:' binds one))"
        #expect(
            dispatcher.requests(for: .line("click still 1 ack=s"), in: engine)
                == [
                    .log(.info, reason + "; click dropped", limited: true),
                    .acknowledge(try Self.token("s"), failure: reason),
                ])
        #expect(
            dispatcher.requests(for: .line("click still 2"), in: engine)
                == [
                    .log(
                        .info,
                        "still: nothing is bound to the middle button (nor to any other ('on_click:' binds one)); "
                            + "click dropped", limited: true)
                ])
    }

    @Test func anIntentLineReadsItsParametersAsTheIntentDeclaresThem() throws {
        let requests = Self.requests(#"intent tap toggle title="Buy milk""#)
        let spec = try #require(TapKind().intent(named: "toggle"))
        let values = try TapKind().intentParameters([("title", "Buy milk")], for: spec)
        #expect(
            requests == [
                .performIntent(
                    IntentInvocation(intent: "toggle", parameters: values), on: Self.tap, acknowledgement: nil)
            ])
    }

    /// Each bad request: logged (limited, as the FIFO's writer caused it) and dropped; with a token, answered with
    /// the reason so a waiting CLI exits 1 at once.
    @Test(arguments: [
        (
            "click ghost 1 ack=a", "click on unknown widget 'ghost': dropped",
            "click on unknown widget 'ghost'"
        ),
        // A widget whose kind the registry lacks (a plugin gone) is as unknown as no widget.
        (
            "click orphan 1 ack=a", "click on unknown widget 'orphan': dropped",
            "click on unknown widget 'orphan'"
        ),
        (
            "intent ghost toggle ack=a", "intent 'toggle' for unknown widget 'ghost': dropped",
            "intent 'toggle' for unknown widget 'ghost'"
        ),
        (
            "intent tap togle ack=a",
            "tap: unknown intent 'togle' for kind 'tap'; did you mean 'toggle'? intents: toggle; dropped",
            "tap: unknown intent 'togle' for kind 'tap'; did you mean 'toggle'? intents: toggle"
        ),
        (
            "intent tap toggle colour=red ack=a",
            "tap: toggle: intent 'toggle' has no parameter 'colour'; parameters: title; dropped",
            "tap: toggle: intent 'toggle' has no parameter 'colour'; parameters: title"
        ),
    ])
    func badRequestsAreLoggedDroppedAndAnswered(line: String, logged: String, reason: String) throws {
        let requests = Self.requests(line)
        try #require(requests.count == 2, "\(requests)")
        guard case .log(.warning, let message, limited: true) = requests[0] else {
            Issue.record("first a limited warning, not \(requests[0])")
            return
        }
        guard case .acknowledge(let token, let failure?) = requests[1] else {
            Issue.record("then a failed acknowledgement, not \(requests[1])")
            return
        }
        #expect(token == (try Self.token("a")))
        #expect(message == logged)
        #expect(failure == reason)
    }

    @Test func aLineThatIsNoRequestIsLoggedAndDropped() {
        let requests = Self.requests("frobnicate \u{1b}[31m")
        #expect(requests.count == 1)
        guard case .log(.warning, let message, limited: true) = requests.first else {
            Issue.record("a limited warning, not \(requests)")
            return
        }
        #expect(message.hasPrefix("control FIFO: dropped 'frobnicate \\x1b[31m': "), "\(message)")
        // Not a request either: a button no bar sends. Its token is not read, so nothing is acknowledged.
        let button = Self.requests("click tap 9 ack=a")
        #expect(button.count == 1)
        #expect(button.allSatisfy { if case .log(.warning, _, limited: true) = $0 { true } else { false } })
    }

    @Test func aLineTheFIFORefusedIsLoggedWithItsReason() {
        #expect(
            Self.dispatcher.requests(for: .rejected(reason: "longer than 4096 bytes"), in: Self.engine)
                == [.log(.warning, "control FIFO: dropped a line: longer than 4096 bytes", limited: true)])
    }
}
