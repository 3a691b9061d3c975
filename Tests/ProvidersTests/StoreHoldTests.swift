import Foundation
import Kind
import Store
import TestSupport
import Testing

@testable import Providers

/// `StoreAccess.hold()`: while a hold is out, the reads in between share one open store (one connection, one load of
/// SQLite), and the last hold to go closes it; without one, each read opens and closes it (issue 15). Real store files,
/// each test in its own temporary directory.
@Suite("a hold keeps the store open between reads")
struct StoreHoldTests {
    /// The store a read opened, held weakly: nil once it has closed.
    final class Opened {
        weak var store: SharedStore?
        init(_ store: SharedStore) { self.store = store }
    }

    /// An access on a store file that does not exist yet, in a fresh directory.
    final class Fixture {
        let directory: URL
        let access: StoreAccess

        init() throws {
            directory = scratchRootURL.appendingPathComponent("widgetd-hold-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            access = StoreAccess(path: directory.appendingPathComponent("store.sqlite").path)
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }

        /// Opens the store, reads the motivations and lets go, as a provider call does.
        func read() throws -> Opened {
            let store = try access.open()
            _ = try store.motivations.all()
            return Opened(store)
        }
    }

    @Test func withoutAHoldEachReadClosesTheStore() throws {
        let fixture = try Fixture()
        let first = try fixture.read()
        #expect(first.store == nil)
        #expect(try fixture.read().store == nil)
    }

    @Test func readsUnderHoldsShareOneStoreThatClosesWithTheLastHold() throws {
        let fixture = try Fixture()
        var burst: StoreHold? = fixture.access.hold()
        var call: StoreHold? = fixture.access.hold()
        let first = try fixture.read()
        let second = try fixture.read()
        #expect(first.store != nil)
        #expect(first.store === second.store)
        call = nil
        #expect(first.store != nil, "one hold is still out")
        #expect(try fixture.read().store === first.store)
        burst = nil
        #expect(first.store == nil)
        #expect(try fixture.read().store == nil)
        _ = (call, burst)
    }

    @Test func aHoldOpensNothingByItself() throws {
        let fixture = try Fixture()
        var hold: StoreHold? = fixture.access.hold()
        #expect(!FileManager.default.fileExists(atPath: fixture.access.path))
        hold = nil
        #expect(!FileManager.default.fileExists(atPath: fixture.access.path))
        _ = hold
    }

    @Test func aReaderStillHoldingTheStoreKeepsItPastTheLastHold() throws {
        let fixture = try Fixture()
        var hold: StoreHold? = fixture.access.hold()
        var reader: SharedStore? = try fixture.access.open()
        let opened = Opened(try #require(reader))
        hold = nil
        #expect(opened.store != nil)
        reader = nil
        #expect(opened.store == nil)
        _ = (hold, reader)
    }

    /// A read that fails (a motivation id that matches none) leaves the store to the hold, which still closes it.
    @Test func aFailingReadUnderAHoldIsLetGoWithTheHold() async throws {
        let fixture = try Fixture()
        let kind = MotivationsKind(store: fixture.access)
        var configuration = kind.defaultConfiguration
        configuration["motivation"] = .entity(.id("ffff"))
        let context = ProviderContext(
            instance: "w", family: .systemMedium, now: Date(timeIntervalSince1970: 1_800_000_000), timeZone: .utc)
        var hold: StoreHold? = fixture.access.hold()
        await #expect {
            _ = try await kind.timeline(for: configuration, in: context)
        } throws: { error in
            "\(error)".hasPrefix("no motivation with id 'ffff'")
        }
        let kept = try fixture.read()
        #expect(kept.store != nil)
        hold = nil
        #expect(kept.store == nil)
        _ = hold
    }
}
