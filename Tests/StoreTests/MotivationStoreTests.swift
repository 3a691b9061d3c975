import Foundation
import Testing

@testable import Store

@Suite("Motivations")
struct MotivationStoreTests {
    @Test("added motivations list newest first, with the schema's defaults")
    func addAndList() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let base = Date(timeIntervalSince1970: 1_750_000_000)
        let first = try fixture.motivations.add(message: "first", timestamp: base)
        try fixture.motivations.add(message: "third", timestamp: base.addingTimeInterval(20))
        try fixture.motivations.add(message: nil, timestamp: base.addingTimeInterval(10))
        try fixture.motivations.add(message: "tie, added later", timestamp: base.addingTimeInterval(20))

        #expect(first.id.count == 32)
        #expect(first.id.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(first.message == "first")
        #expect(first.timestamp == base)
        #expect(!first.isFavorite)
        #expect(first.backgroundColorHex == "#D3D3D3")

        let all = try fixture.motivations.all()
        #expect(all.map(\.message) == ["tie, added later", "third", nil, "first"])
        #expect(all.last == first)
    }

    @Test("addSample gives each of the seed's twenty once, then nil")
    func samples() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(Motivation.samples.count == 20)
        #expect(Set(Motivation.samples).count == 20)
        #expect(Motivation.samples.contains("Don’t stop now."))

        try fixture.motivations.add(message: "Keep going!")
        var generator = SeededGenerator(state: 42)
        var added: [String] = []
        while let motivation = try fixture.motivations.addSample(using: &generator) {
            added.append(try #require(motivation.message))
        }
        #expect(added.count == 19, "the one typed by hand is not offered again")
        #expect(Set(added).count == 19)
        #expect(Set(added + ["Keep going!"]) == Set(Motivation.samples))
        #expect(try fixture.motivations.addSample() == nil)
        #expect(try fixture.motivations.all().count == 20)
    }

    @Test("toggleFavorite flips and returns the stored state")
    func favorite() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let motivation = try fixture.motivations.add(message: "Push beyond limits.")
        #expect(try fixture.motivations.toggleFavorite(id: motivation.id).isFavorite)
        #expect(try fixture.motivations.resolve(reference: motivation.id).isFavorite)
        #expect(try !fixture.motivations.toggleFavorite(id: String(motivation.id.prefix(6))).isFavorite)
    }

    @Test("setColor stores valid hex", arguments: ["#abc", "#FFAA00", "#ffaa0080"])
    func color(hex: String) throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let motivation = try fixture.motivations.add(message: "x")
        #expect(try fixture.motivations.setColor(id: motivation.id, hex: hex).backgroundColorHex == hex)
        #expect(try fixture.motivations.all().first?.backgroundColorHex == hex)
    }

    @Test(
        "setColor refuses what is not #RGB, #RRGGBB or #RRGGBBAA",
        arguments: ["red", "FFAA00", "#12", "#1234", "#GGGGGG", "#FFAA00 ", "", "#", "#ＡＢＣ"])
    func badColor(hex: String) throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let motivation = try fixture.motivations.add(message: "x")
        let error = #expect(throws: StoreError.self) { try fixture.motivations.setColor(id: motivation.id, hex: hex) }
        #expect(error == .invalidColor(hex))
        #expect(error?.description.contains("use #RGB, #RRGGBB or #RRGGBBAA") == true)
        #expect(try fixture.motivations.all().first?.backgroundColorHex == "#D3D3D3")
    }

    @Test("references: whole id, unique prefix, ambiguous, too short, not found")
    func resolve() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let a = "abcd0000000000000000000000000001"
        let b = "abcd1111111111111111111111111111"
        let c = "ef01ffffffffffffffffffffffffffff"
        try fixture.insertMotivation(id: a, message: "A")
        try fixture.insertMotivation(id: b, message: nil)
        try fixture.insertMotivation(id: c, message: "C")

        #expect(try fixture.motivations.resolve(reference: a).message == "A")
        #expect(try fixture.motivations.resolve(reference: "abcd0").id == a)
        #expect(try fixture.motivations.resolve(reference: "ABCD1").id == b, "ids are typed in any case")
        #expect(try fixture.motivations.resolve(reference: "ef01").id == c)
        #expect(try fixture.motivations.resolve(reference: " ef01 ").id == c)
        #expect(
            try fixture.motivations.resolve(reference: "EF01FFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF").id == c,
            "a pasted UUID string works")

        let ambiguous = #expect(throws: StoreError.self) { try fixture.motivations.resolve(reference: "abcd") }
        #expect(ambiguous == .ambiguous("abcd", [.init(id: a, label: "A"), .init(id: b, label: "")]))
        #expect(ambiguous?.description.contains("'abcd' is ambiguous: 2 ids start with it") == true)
        #expect(ambiguous?.description.contains("\(a) A") == true)

        // An id this widgetd did not write (a hand-made or foreign version-1 file) is found however it is typed.
        let foreign = "A1B2C3D4-0000-4000-8000-000000000001"
        try fixture.insertMotivation(id: foreign, message: "F")
        #expect(try fixture.motivations.resolve(reference: foreign).id == foreign)
        #expect(try fixture.motivations.resolve(reference: "a1b2c3d4").id == foreign)

        let short = #expect(throws: StoreError.self) { try fixture.motivations.resolve(reference: "ef0") }
        #expect(short == .referenceTooShort("ef0"))
        #expect(short?.description == "'ef0' is too short: give the whole id or at least 4 characters of it")

        for missing in ["9999", "abcd2", "zzzz", "", "abcd0000000000000000000000000002", "ef01%"] {
            #expect(throws: StoreError.notFound(missing)) { try fixture.motivations.resolve(reference: missing) }
        }
        #expect(throws: StoreError.notFound("9999")) { try fixture.motivations.toggleFavorite(id: "9999") }
    }

    @Test("remove deletes every reference or none")
    func remove() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let one = try fixture.motivations.add(message: "one")
        let two = try fixture.motivations.add(message: "two")
        let three = try fixture.motivations.add(message: "three")

        #expect(throws: StoreError.notFound("0000")) {
            try fixture.motivations.remove(ids: [one.id, "0000"])
        }
        #expect(try fixture.motivations.all().count == 3)

        let removed = try fixture.motivations.remove(ids: [three.id, String(one.id.prefix(8)), three.id])
        #expect(removed == [three, one])
        #expect(try fixture.motivations.all() == [two])
    }

    @Test(
        "matching ignores case and accents, newest first",
        arguments: [
            ("LIMITS", ["Push beyond limits."]),
            ("cafe", ["Cafe\u{301} cre\u{300}me", "Café time"]),
            ("CAFÉ T", ["Café time"]),
            ("creme", ["Cafe\u{301} cre\u{300}me"]),
            ("don't", ["Don’t stop now."]),
            ("limit", ["Your only limit is you.", "Push beyond limits."]),
            ("nothing like this", []),
        ] as [(String, [String])])
    func matching(text: String, expected: [String]) throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        var time = 1_000.0
        for message in [
            "Push beyond limits.", "Café time", "Don’t stop now.", "Your only limit is you.",
            "Cafe\u{301} cre\u{300}me",
        ] {
            time += 1
            try fixture.motivations.add(message: message, timestamp: Date(timeIntervalSince1970: time))
        }
        try fixture.motivations.add(message: nil, timestamp: Date(timeIntervalSince1970: 2_000))
        #expect(try fixture.motivations.matching(text).map(\.message) == expected)
    }

    @Test("the entity query follows the seed: messages only, default is the newest")
    func entityQuery() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        #expect(try fixture.motivations.defaultResult() == nil)
        #expect(try fixture.motivations.suggested() == [])

        let old = try fixture.motivations.add(message: "old", timestamp: Date(timeIntervalSince1970: 100))
        let favourite = try fixture.motivations.add(message: "fav", timestamp: Date(timeIntervalSince1970: 200))
        try fixture.motivations.toggleFavorite(id: favourite.id)
        let new = try fixture.motivations.add(message: "new", timestamp: Date(timeIntervalSince1970: 300))
        let empty = try fixture.motivations.add(message: nil, timestamp: Date(timeIntervalSince1970: 400))

        #expect(try fixture.motivations.suggested().map(\.message) == ["new", "fav", "old"])
        #expect(try fixture.motivations.defaultResult() == new)
        #expect(try fixture.motivations.matching("  ").map(\.id) == [new.id, favourite.id, old.id])
        #expect(
            try fixture.motivations.entities(for: [old.id, "nope", new.id.uppercased(), empty.id, old.id]).map(\.id)
                == [old.id, new.id])
        #expect(try fixture.motivations.resolve(reference: empty.id).message == nil, "still found by id")
    }

    @Test("the newest-first list reads the timestamp index instead of sorting")
    func usesIndex() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let plan = try fixture.store.database.query(
            "EXPLAIN QUERY PLAN SELECT \(Motivation.columns) FROM motivations \(MotivationStore.newestFirst)"
        ) { $0.string(at: 3) ?? "" }
        #expect(plan.contains { $0.contains("motivations_by_timestamp") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }
}
