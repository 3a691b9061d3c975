import FoundationEssentials
import Kind
import Store
import Text
import Timelines

/// The top three to-dos from the shared store (seed 002's interactive widget); a click toggles the item
/// under the pointer when the bar says where it landed, else the first open one.
public struct TodosKind: WidgetKind {
    public let name = "todos"
    public let displayName = "To-dos"
    public let summary = "Your top three to-dos; click one to tick it off."
    public var usesStore: Bool { true }
    public let families: [Family] = [
        .systemMedium, .systemLarge, .systemExtraLarge, .accessoryRectangular, .systemSmall,
    ]
    public let parameters: [ParameterSpec] = []
    public let intents = [
        IntentSpec(
            "toggle", summary: "Mark a to-do done or open again.",
            parameters: [
                ParameterSpec(
                    "item", displayName: "Item", type: .string,
                    summary: "A title or id prefix; absent: the item clicked, else the first open one.")
            ])
    ]

    /// The seed's text for an empty list.
    public static let emptyText = "No todos yet"
    /// How many to-dos show.
    static let shown = 3
    /// Between items in the bar.
    static let separator = "  "
    /// Completed items' colour when every item shown is done (a block has one foreground).
    static let dimmed = Color(red: 0x88, green: 0x88, blue: 0x88)

    let store: StoreAccess

    public init(store: StoreAccess) {
        self.store = store
    }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: "☐ …")
    }

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        TimelineEntry(date: context.now, content: Self.content(for: try store.open().todos.top(Self.shown)))
    }

    /// `.atEnd`, as the seed's widget asks: with one entry that means "whenever convenient", which the
    /// engine's rate limit turns into a reload at most every few minutes; every change the app or a click
    /// makes reloads it at once anyway.
    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        Timeline(entries: [try await snapshot(for: configuration, in: context)], policy: .atEnd)
    }

    public func defaultIntent(for button: MouseButton) -> String? {
        button == .left ? "toggle" : nil
    }

    public func perform(
        _ invocation: IntentInvocation, for configuration: IntentValues, in context: ProviderContext
    ) async throws -> IntentOutcome {
        guard invocation.intent == "toggle" else {
            throw IntentError("kind 'todos' has no intent '\(invocation.intent)'")
        }
        let todos = try store.open().todos
        let target: String
        if let item = invocation.parameters.string("item") {
            target = item
        } else {
            let top = try todos.top(Self.shown)
            let clicked = invocation.click?.fraction.flatMap { Self.item(at: $0, in: top, family: context.family) }
            guard let chosen = clicked ?? top.first(where: { !$0.completed }) else {
                throw IntentError("no open to-do to toggle")
            }
            target = chosen.id
        }
        let toggled = try todos.toggle(titleOrID: target, at: context.now)
        return IntentOutcome("\(toggled.completed ? "done" : "open again"): \(toggled.title)")
    }

    static func line(for todo: Todo) -> String {
        (todo.completed ? "☑ " : "☐ ") + todo.title
    }

    static func content(for todos: [Todo]) -> EntryContent {
        guard !todos.isEmpty else { return EntryContent(text: emptyText) }
        let text = todos.map { line(for: $0) }.joined(separator: separator)
        let open = todos.filter { !$0.completed }
        // Each done item dimmed where a bar can style part of a block; all done, the whole block is.
        var dimmedRanges: [Range<Int>] = []
        var offset = 0
        for todo in todos {
            let length = line(for: todo).count
            if todo.completed { dimmedRanges.append(offset..<offset + length) }
            offset += length + separator.count
        }
        return EntryContent(
            text: text, shortText: line(for: open.first ?? todos[0]),
            tooltip: todos.map { line(for: $0) }.joined(separator: "\n"),
            foreground: open.isEmpty ? dimmed : nil, classes: open.isEmpty ? ["completed"] : [],
            dimmedRanges: open.isEmpty ? [] : dimmedRanges)
    }

    /// The item under a click `fraction` of the way along the block, laid out as `content(for:)` writes it
    /// and cut to the family's width as the bar shows it.
    static func item(at fraction: Double, in todos: [Todo], family: Family) -> Todo? {
        guard !todos.isEmpty else { return nil }
        let widths = todos.map { DisplayWidth.of(line(for: $0)) }
        let total = widths.reduce(0, +) + DisplayWidth.of(separator) * (todos.count - 1)
        let shownWidth = min(total, family.fullWidth)
        let cell = fraction * Double(shownWidth)
        var start = 0.0
        for (todo, width) in zip(todos, widths) {
            let end = start + Double(width + DisplayWidth.of(separator))
            if cell < end { return todo }
            start = end
        }
        return todos.last
    }
}
