import Foundation
import Testing

@testable import Store

@Suite("Concurrent writers")
struct ConcurrencyTests {
    @Test("two connections on two threads, 200 adds and toggles each: nothing lost, no error")
    func twoConnections() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.storePath
        let shared = try SharedStore(path: path).motivations.add(message: "shared")
        let rounds = 200

        let errors = Collected<String>()
        let states = Collected<Bool>()
        let finished = onThreads(2) { thread in
            do {
                // Each thread its own connection, as the daemon and the CLI are separate processes.
                let motivations = try SharedStore(path: path).motivations
                for round in 0..<rounds {
                    try motivations.add(message: "thread \(thread) round \(round)")
                    states.append(try motivations.toggleFavorite(id: shared.id).isFavorite)
                }
            } catch {
                errors.append("\(error)")
            }
        }
        #expect(finished, "both threads finished")
        #expect(errors.values == [], "no error escapes, 'database is locked' included")

        let store = try SharedStore(path: path)
        let all = try store.motivations.all()
        #expect(all.count == 1 + 2 * rounds)
        #expect(Set(all.compactMap(\.message)).count == 1 + 2 * rounds)
        // 400 toggles in some order: the flag alternates, so half the calls saw it set and it ends as it began.
        #expect(try store.motivations.resolve(reference: shared.id).isFavorite == false)
        #expect(states.values.count == 2 * rounds)
        #expect(states.values.filter { $0 }.count == rounds)
    }

    @Test("to-dos toggled from two connections at once keep an exact count")
    func todoToggles() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.storePath
        let todo = try SharedStore(path: path).todos.add(title: "Flip me")
        let errors = Collected<String>()
        let finished = onThreads(2) { _ in
            do {
                let todos = try SharedStore(path: path).todos
                // 101 each: 202 toggles in all, so the item ends open.
                for _ in 0..<101 { try todos.toggle(titleOrID: "flip me") }
                try todos.add(title: "done")
            } catch {
                errors.append("\(error)")
            }
        }
        #expect(finished)
        #expect(errors.values == [])
        let all = try SharedStore(path: path).todos.all()
        #expect(all.count == 3)
        #expect(all.first { $0.id == todo.id }?.completed == false)
    }

    @Test("samples added from two connections at once are never added twice")
    func concurrentSamples() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.storePath
        _ = try SharedStore(path: path)
        let errors = Collected<String>()
        let nils = Collected<Int>()
        let finished = onThreads(2) { _ in
            do {
                let motivations = try SharedStore(path: path).motivations
                for _ in 0..<15 where try motivations.addSample() == nil {
                    nils.append(1)
                }
            } catch {
                errors.append("\(error)")
            }
        }
        #expect(finished)
        #expect(errors.values == [])
        #expect(nils.values.count == 10)
        let messages = try SharedStore(path: path).motivations.all().compactMap(\.message)
        #expect(messages.count == 20)
        #expect(Set(messages) == Set(Motivation.samples))
    }
}
