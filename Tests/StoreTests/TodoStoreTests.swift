import Foundation
import Testing

@testable import Store

@Suite("To-dos")
struct TodoStoreTests {
    private func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    @Test("in the order they were added, done or not: a done item keeps its place")
    func ordering() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let todos = fixture.todos
        try todos.add(title: "A", created: at(1))
        try todos.add(title: "B", created: at(2))
        try todos.add(title: "C", created: at(3))
        try todos.add(title: "D", created: at(4))
        try todos.toggle(titleOrID: "C", at: at(10))
        try todos.toggle(titleOrID: "A", at: at(20))

        #expect(try todos.all().map(\.title) == ["A", "B", "C", "D"])
        #expect(try todos.top(3).map(\.title) == ["A", "B", "C"])
        #expect(try todos.top().count == 3)
        #expect(try todos.top(10).count == 4)
        #expect(try todos.top(0) == [])

        let a = try #require(try todos.all().first { $0.title == "A" })
        #expect(a.completed)
        #expect(a.completedAt == at(20))
        #expect(a.created == at(1))

        // Reopened, A is open again, still first.
        let reopened = try todos.toggle(titleOrID: "a", at: at(30))
        #expect(!reopened.completed)
        #expect(reopened.completedAt == nil)
        #expect(try todos.all().map(\.title) == ["A", "B", "C", "D"])
    }

    @Test("the display order reads its index instead of sorting")
    func usesIndex() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let plan = try fixture.store.database.query(
            "EXPLAIN QUERY PLAN SELECT \(Todo.columns) FROM todos \(TodoStore.displayOrder) LIMIT 3"
        ) { $0.string(at: 3) ?? "" }
        #expect(plan.contains { $0.contains("todos_by_creation") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test("toggle by title in any case, or by id prefix")
    func toggleByTitleOrID() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let milk = try fixture.todos.add(title: "  Buy milk\n")
        #expect(milk.title == "Buy milk")
        let bread = try fixture.todos.add(title: "Bake bread")

        #expect(try fixture.todos.toggle(titleOrID: "BUY MILK").completed)
        #expect(try fixture.todos.toggle(titleOrID: String(bread.id.prefix(5))).completed)
        #expect(try !fixture.todos.toggle(titleOrID: bread.id).completed)
        #expect(throws: StoreError.notFound("Buy")) { try fixture.todos.toggle(titleOrID: "Buy") }
        #expect(throws: StoreError.referenceTooShort("abc")) { try fixture.todos.toggle(titleOrID: "abc") }
        #expect(throws: StoreError.emptyTitle) { try fixture.todos.add(title: " \t") }
    }

    @Test("a title that looks like an id prefix means the title")
    func titleBeatsID() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let other = try fixture.todos.add(title: "something")
        let prefix = String(other.id.prefix(4))
        let named = try fixture.todos.add(title: prefix)
        #expect(try fixture.todos.toggle(titleOrID: prefix).id == named.id)
    }

    @Test("an ambiguous id prefix lists the candidates by title")
    func ambiguousPrefix() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let a = "feed0000000000000000000000000000"
        let b = "feed1111111111111111111111111111"
        for (id, title) in [(a, "one"), (b, "two")] {
            try fixture.store.database.execute("INSERT INTO todos(id, title, created) VALUES (?, ?, 0)", id, title)
        }
        let error = #expect(throws: StoreError.self) { try fixture.todos.toggle(titleOrID: "FEED") }
        #expect(error == .ambiguous("FEED", [.init(id: a, label: "one"), .init(id: b, label: "two")]))
        #expect(try fixture.todos.all().allSatisfy { !$0.completed })
    }

    @Test("duplicate titles: the oldest open one toggles; when all are done, the last one done reopens")
    func duplicateTitles() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let first = try fixture.todos.add(title: "Water plants", created: at(1))
        let second = try fixture.todos.add(title: "water plants", created: at(2))

        #expect(try fixture.todos.toggle(titleOrID: "Water Plants", at: at(100)).id == first.id)
        #expect(try fixture.todos.toggle(titleOrID: "Water Plants", at: at(200)).id == second.id)
        let reopened = try fixture.todos.toggle(titleOrID: "Water Plants", at: at(300))
        #expect(reopened.id == second.id)
        #expect(!reopened.completed)

        #expect(try fixture.todos.remove(titleOrID: "water plants").id == second.id, "the open one, named first")
        #expect(try fixture.todos.remove(titleOrID: "water plants").id == first.id)
        #expect(try fixture.todos.all() == [])
        #expect(throws: StoreError.notFound("water plants")) { try fixture.todos.remove(titleOrID: "water plants") }
    }

    @Test("titles match case but not accents")
    func titleCaseOnly() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        try fixture.todos.add(title: "Résumé")
        #expect(try fixture.todos.resolve(titleOrID: "RÉSUMÉ").title == "Résumé")
        #expect(throws: StoreError.notFound("resume")) { try fixture.todos.resolve(titleOrID: "resume") }
    }
}
