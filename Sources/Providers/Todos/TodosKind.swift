import FoundationEssentials
import Kind
import Store
import Text
import Timelines

/// The top three to-dos from the shared store (seed 002's interactive widget), in the order they were added: a done
/// item keeps its place, dimmed and marked (`Symbols`), so a second click at the same spot opens it again. A click
/// toggles the item under the pointer when the bar says where it landed; a widget with `item: N` shows and toggles
/// only the Nth, for bars that do not say (one widget per item); a click off the items runs the widget's `app:`.
public struct TodosKind: WidgetKind {
    public let name = "todos"
    public let displayName = "To-dos"
    public let summary = "Your top three to-dos; click one to tick it off, again to open it."
    public var usesStore: Bool { true }
    public let families: [Family] = [
        .systemMedium, .systemLarge, .systemExtraLarge, .accessoryRectangular, .systemSmall,
    ]
    public let parameters: [ParameterSpec] = [
        ParameterSpec(
            "item", displayName: "Item", type: .int(1...TodosKind.shown),
            summary: "Show only the Nth of the top three, and toggle it on a click: for bars that do not say where "
                + "a click landed (i3blocks 1.4, polybar, waybar, tmux), one widget per item."),
        ParameterSpec(
            "show_done", displayName: "Show Done", type: .bool, default: .bool(true),
            summary:
                "Keep done items in their place, dimmed; false hides each \(Int(TodosKind.doneGrace)) s after it was "
                + "ticked, time to click it again if the tick was a slip."),
        Symbols.parameter,
    ]
    public let widgetKeys = [
        WidgetKeySpec(
            "app", type: .command,
            summary: "What a left click off the items runs (past the last item, or an `item:` with no to-do): "
                + "the seed's tap outside the items, which opens the app.")
    ]
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
    /// How long a done item stays with `show_done: false`: long enough to see the tick and click the same place again
    /// if it was the wrong item, short enough that the next item moves up while the user still looks.
    public static let doneGrace: TimeInterval = 10
    /// Between items in the bar.
    static let separator = "  "
    /// Completed items' colour when every item shown is done (a block has one foreground).
    static let dimmed = Color(red: 0x88, green: 0x88, blue: 0x88)

    let store: StoreAccess

    public init(store: StoreAccess) {
        self.store = store
    }

    public func placeholder(in context: ProviderContext) -> EntryContent {
        EntryContent(text: Symbols.text.open + " …")
    }

    public func snapshot(for configuration: IntentValues, in context: ProviderContext) async throws -> TimelineEntry {
        try timeline(of: try store.open().todos.all(), for: configuration, now: context.now).entries[0]
    }

    /// `.atEnd`, as the seed's widget asks: with one entry that means "whenever convenient", which the
    /// engine's rate limit turns into a reload at most every few minutes; every change the app or a click
    /// makes reloads it at once anyway. With `show_done: false`, a recently done item's disappearance is an entry
    /// at its date.
    public func timeline(for configuration: IntentValues, in context: ProviderContext) async throws -> Timeline {
        try timeline(of: try store.open().todos.all(), for: configuration, now: context.now)
    }

    /// The timeline for `todos` (every stored one, in order) as seen from `now`: pure, for the tests.
    func timeline(of todos: [Todo], for configuration: IntentValues, now: Date) throws -> Timeline {
        let symbols = Symbols.chosen(in: configuration)
        let item = configuration.int("item")
        var dates = [now]
        if configuration.bool("show_done") == false {
            // Each item still in its grace leaves the list at a date of its own.
            dates += todos.compactMap { $0.completedAt.map { $0.addingTimeInterval(Self.doneGrace) } }
                .filter { $0 > now }.sorted()
        }
        let entries = dates.map { date in
            let visible = Self.visible(todos, for: configuration, at: date)
            return TimelineEntry(date: date, content: Self.content(for: visible, item: item, symbols: symbols))
        }
        return Timeline(entries: entries, policy: .atEnd)
    }

    /// The top three of `todos` that show at `date`: with `show_done: false`, done items only within their grace.
    static func visible(_ todos: [Todo], for configuration: IntentValues, at date: Date) -> [Todo] {
        let showDone = configuration.bool("show_done") ?? true
        let shownTodos = todos.filter { todo in
            guard todo.completed, !showDone else { return true }
            return todo.completedAt.map { date < $0.addingTimeInterval(doneGrace) } ?? false
        }
        return Array(shownTodos.prefix(shown))
    }

    public func defaultIntent(for button: MouseButton) -> String? {
        button == .left ? "toggle" : nil
    }

    public func perform(
        _ invocation: IntentInvocation, for configuration: IntentValues, in context: ProviderContext
    ) async throws -> IntentOutcome {
        try requireDeclared(invocation)
        let todos = try store.open().todos
        let target: String
        if let item = invocation.parameters.string("item") {
            target = item
        } else {
            let top = Self.visible(try todos.all(), for: configuration, at: context.now)
            let symbols = Symbols.chosen(in: configuration)
            let item = configuration.int("item")
            switch Self.clicked(invocation.click, in: top, item: item, family: context.family, symbols: symbols) {
            case .item(let todo):
                target = todo.id
            case .offTheItems:
                guard let app = context.settings.command("app") else {
                    return IntentOutcome("the click is off the items and no app: is set", reloadsKind: false)
                }
                return IntentOutcome("the click is off the items: runs app:", reloadsKind: false, command: app)
            }
        }
        let toggled = try todos.toggle(titleOrID: target, at: context.now)
        return IntentOutcome("\(toggled.completed ? "done" : "open again"): \(toggled.title)")
    }

    /// What a click on a widget showing `top` lands on.
    enum ClickTarget: Equatable {
        case item(Todo)
        case offTheItems
    }

    /// The item `click` toggles: the widget's one `item:`, the item under the pointer when the bar says where it
    /// landed, else the first open one.
    static func clicked(
        _ click: ClickLocation?, in top: [Todo], item: Int?, family: Family, symbols: Symbols = .text
    ) -> ClickTarget {
        if let item {
            return top.indices.contains(item - 1) ? .item(top[item - 1]) : .offTheItems
        }
        if let fraction = click?.fraction {
            return Self.item(at: fraction, in: top, family: family, symbols: symbols).map(ClickTarget.item)
                ?? .offTheItems
        }
        return top.first(where: { !$0.completed }).map(ClickTarget.item) ?? .offTheItems
    }

    static func line(for todo: Todo, symbols: Symbols) -> String {
        (todo.completed ? symbols.done : symbols.open) + " " + todo.title
    }

    /// The widget's content for the to-dos shown, or for the one `item` (1-based) of them: empty when there is no
    /// such item, which hides the block on every bar.
    static func content(for todos: [Todo], item: Int? = nil, symbols: Symbols = .text) -> EntryContent {
        if let item {
            guard todos.indices.contains(item - 1) else {
                return EntryContent(text: todos.isEmpty && item == 1 ? emptyText : "")
            }
            return content(for: [todos[item - 1]], symbols: symbols)
        }
        guard !todos.isEmpty else { return EntryContent(text: emptyText) }
        let lines = todos.map { line(for: $0, symbols: symbols) }
        let text = lines.joined(separator: separator)
        let open = todos.filter { !$0.completed }
        // Each done item dimmed where a bar can style part of a block; all done, the whole block is.
        var dimmedRanges: [Range<Int>] = []
        var offset = 0
        for (todo, line) in zip(todos, lines) {
            if todo.completed { dimmedRanges.append(offset..<offset + line.count) }
            offset += line.count + separator.count
        }
        return EntryContent(
            text: text, shortText: line(for: open.first ?? todos[0], symbols: symbols),
            tooltip: lines.joined(separator: "\n"),
            foreground: open.isEmpty ? dimmed : nil, classes: open.isEmpty ? ["completed"] : [],
            dimmedRanges: open.isEmpty ? [] : dimmedRanges)
    }

    /// The item under a click `fraction` of the way along the block, laid out as `content(for:)` writes it
    /// and cut to the family's width as the bar shows it; nil past the last item's text.
    static func item(at fraction: Double, in todos: [Todo], family: Family, symbols: Symbols = .text) -> Todo? {
        guard !todos.isEmpty else { return nil }
        let widths = todos.map { DisplayWidth.of(line(for: $0, symbols: symbols)) }
        let separatorWidth = DisplayWidth.of(separator)
        let total = widths.reduce(0, +) + separatorWidth * (todos.count - 1)
        let shownWidth = min(total, family.fullWidth)
        let cell = fraction * Double(shownWidth)
        var start = 0.0
        for (todo, width) in zip(todos, widths) {
            // The gap after an item is the item's: a click just past a title still means it.
            let end = start + Double(width + separatorWidth)
            if cell < end { return todo }
            start = end
        }
        return nil
    }
}
