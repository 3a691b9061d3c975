import Foundation
import Kind
import Synchronization
import Testing
import Timelines

@testable import SystemKinds

/// A network session on a listener of the test's own, in the namespace the tests run in: where its entries are made.
@Suite("network sessions")
struct NetworkSessionTests {
    /// The kernel's name for the calling thread (15 bytes at most).
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "unreadable")
            .trimmingCharacters(in: .newlines)
    }

    /// Polls `done` every millisecond for at most 10 s.
    static func waitUpTo10s(_ done: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !done() {
            if Date() > deadline { return false }
            usleep(1_000)
        }
        return true
    }

    /// A session's start reads nothing and shows nothing on the caller's thread (the daemon's loop): the dump, the
    /// nl80211 question and every entry, the first and a click's included, are the listener's thread's, so they come
    /// in the order that thread heard the states. The thread is held by another subscriber while the session starts:
    /// an entry made by the caller would show then.
    @Test func startReturnsWhileTheListenerIsBusyAndEveryEntryComesFromItsThread() throws {
        let listener = RouteListener()
        let release = DispatchSemaphore(value: 0)
        let holding = Mutex(false)
        // Its first call, whatever its cause, holds the listener's thread until the test lets it go.
        let holder = try listener.subscribe(sampleInterval: .milliseconds(1)) { _, _ in
            guard !holding.withLock({ $0 }) else { return }
            holding.withLock { $0 = true }
            release.wait()
        }.get()
        defer { holder.cancel() }
        #expect(Self.waitUpTo10s { holding.withLock { $0 } }, "the listener's thread never called its first subscriber")

        let entries = Mutex<[(thread: String, text: String)]>([])
        let kind = NetworkKind(listener: listener)
        let values = configuration(
            kind,
            ["interface": .string("lo"), "format": .string("A {interface}"), "format_alt": .string("B {interface}")])
        let session = try kind.startSession(for: values, in: context("net")) { update in
            guard case .timeline(let timeline) = update, let entry = timeline.entries.first else { return }
            let thread = Self.threadName()
            entries.withLock { $0.append((thread, entry.content.text)) }
        }
        defer { session.stop() }
        #expect(entries.withLock { $0.isEmpty }, "an entry was made while the listener's thread was held")
        release.signal()
        #expect(Self.waitUpTo10s { entries.withLock { $0.count == 1 } }, "the first entry never came")
        #expect(session.deliver(IntentInvocation(intent: NetworkKind.toggleIntent)) == nil)
        #expect(Self.waitUpTo10s { entries.withLock { $0.count == 2 } }, "the click's entry never came")
        let made = entries.withLock { $0 }
        #expect(made.map(\.text) == ["A lo", "B lo"])
        #expect(made.map(\.thread) == ["widgetd-rtnetli", "widgetd-rtnetli"], "widgetd-rtnetlink, cut to 15 bytes")
    }

    /// A socket that dies after the start (made to, through the listener's test hook: the kernel cannot be made to)
    /// leaves the state as last heard on the widget, marked stale with the reason, and says so once in the log.
    @Test func aSocketThatDiesAfterTheStartShowsTheLastStateAsStale() throws {
        let listener = RouteListener()
        let entries = Mutex<[EntryContent]>([])
        let notes = Mutex<[String]>([])
        let kind = NetworkKind(listener: listener)
        let values = configuration(kind, ["interface": .string("lo"), "format": .string("A {interface}")])
        let session = try kind.startSession(for: values, in: context("net")) { update in
            switch update {
            case .timeline(let timeline): entries.withLock { $0 += timeline.entries.prefix(1).map(\.content) }
            case .note(let note): notes.withLock { $0.append(note) }
            case .stopped, .unusable: break
            }
        }
        defer { session.stop() }
        #expect(Self.waitUpTo10s { entries.withLock { $0.count == 1 } }, "the first entry never came")
        #expect(entries.withLock { $0.first?.state } == .normal)
        #expect(notes.withLock { $0.isEmpty }, "\(notes.withLock { $0 })")

        #expect(listener.breakSocketForTesting())
        #expect(Self.waitUpTo10s { entries.withLock { $0.count == 2 } }, "the failure was never shown")
        let stale = try #require(entries.withLock { $0.last })
        #expect(stale.text == "A lo" && stale.state == .stale)
        #expect(stale.tooltip?.hasSuffix("the rtnetlink socket failed; the network is no longer followed") == true)
        #expect(notes.withLock { $0 } == ["the rtnetlink socket failed; the network is no longer followed"])
        #expect(listener.problem != nil)
    }
}
