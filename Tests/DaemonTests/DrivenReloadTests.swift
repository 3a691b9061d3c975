import Formats
import Foundation
import Glibc
import Providers
import Runtime
import System
import TestSupport
import Testing

@testable import Daemon

/// What a reload writes, and where: one rename of the bar file per reload of a kind that answers at once, with the
/// record agreeing; the spare left empty for the next write; a reload of a kind touching that kind alone; nothing
/// written through a link put at the output directory. The whole daemon in this process, on a clock the test moves
/// (`DrivenDaemon`), with requests written to its FIFO as the CLI writes them.
@Suite("the daemon on a driven clock: what a reload writes", .waitsOnThreadsOfItsOwn)
struct DrivenReloadTests {
    static let oneQuote = "widgets:\n  q0:\n    kind: quotes\n    output: [plain]\n"

    private static func inode(_ path: String) -> ino_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_ino : nil
    }

    /// The entry the record shows now, as `widgetd show` renders it.
    private static func recorded(_ driven: DrivenDaemon, _ name: String) -> String? {
        InstanceRecord.read(from: driven.output + "/" + name + ".json")?.rendered(as: .plain, at: driven.clock.now)
    }

    @Test func eachReloadRenamesTheFileOnceAndTheRecordAgrees() throws {
        let driven = try DrivenDaemon(config: Self.oneQuote)
        #expect(driven.turns(until: "the quote's timeline") { driven.hasTimeline("q0") })
        let renames = try Inotify()
        _ = try renames.watch(directory: driven.output, mask: .movedTo)
        var count = 0
        var shown = [try #require(driven.read("q0.plain"))]
        for round in 1...3 {
            #expect(driven.reloadIsAcknowledged("q0", token: "round\(round)"))
            // The turns after it write nothing more.
            for _ in 0..<3 { driven.settle() }
            count += renames.readEvents().filter { $0.name == "q0.plain" }.count
            #expect(count == round, "round \(round): \(count) renames")
            let now = try #require(driven.read("q0.plain"))
            // The quote after the one shown: the kind was asked once, with what the widget showed before.
            #expect(now != shown.last)
            shown.append(now)
            let record = Self.recorded(driven, "q0")
            #expect(record == now, "the record shows '\(record ?? "nothing")', the file '\(now)'")
        }
        #expect(Set(shown).count == shown.count, "\(shown)")
        #expect(!driven.log.contains("error"), "\(driven.log)")
    }

    /// After a reload that changed the file's length, the file just replaced (now its spare) is emptied before the
    /// daemon sleeps, with pages kept for the next quote (`HeldSpares.emptyRetiredSpares`): the next reload's write
    /// neither truncates nor allocates.
    @Test func aReloadOfAnotherLengthLeavesAnEmptySpareBehind() throws {
        let driven = try DrivenDaemon(config: Self.oneQuote)
        #expect(driven.turns(until: "the quote's timeline") { driven.hasTimeline("q0") })
        func spare() -> stat? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: driven.output)) ?? []
            guard let name = names.first(where: { $0.hasPrefix(".q0.plain.") }) else { return nil }
            var status = stat()
            return lstat(driven.output + "/" + name, &status) == 0 ? status : nil
        }
        // The file is held open with its spare from its third write on; then reloads until one changes the length.
        var before = try #require(driven.read("q0.plain"))
        var changedLength = false
        for round in 1...12 where !changedLength {
            #expect(driven.reloadIsAcknowledged("q0", token: "round\(round)"))
            let now = try #require(driven.read("q0.plain"))
            changedLength = round >= 2 && now.utf8.count != before.utf8.count
            before = now
        }
        try #require(changedLength, "twelve reloads kept the quote's length")
        driven.settle()
        let emptied = spare()
        #expect(
            emptied.map { $0.st_size == 0 && $0.st_blocks > 0 } == true,
            "spare: \(String(describing: emptied.map { ($0.st_size, $0.st_blocks) }))")
        #expect(driven.read("q0.plain") == before)
        #expect(driven.reloadIsAcknowledged("q0", token: "after"))
        #expect(driven.read("q0.plain") != before)
        #expect(!driven.log.contains("error"), "\(driven.log)")
    }

    @Test func aReloadOfAKindUpdatesItsFilesWithTheNextQuoteAndAsksNoOtherKind() throws {
        let driven = try DrivenDaemon(config: SampleConfigs.quoteAndSeconds)
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        let first = try #require(driven.read("quote.plain")).dropLast()
        let next = try #require(QuotesKind.quote(in: "focus", after: String(first)))
        #expect(driven.writeToFIFO("reload kind quotes\n"))
        #expect(driven.turns(until: "the next quote in the file") { driven.read("quote.plain") == next + "\n" })
        #expect(
            driven.turns(until: "the next quote in the waybar file") {
                driven.read("quote.waybar")?.contains(next) == true
            })
        // The clock was not asked again.
        #expect(driven.log.components(separatedBy: "seconds: asking clock for a timeline").count == 2)
    }

    /// `reload NAME` is parsed on a short path and a quote answers on the loop's thread without a timeout: the reload
    /// still writes the next quote, the record and the status file, and a name that matches no widget is still logged;
    /// the same line again from a writer that kept the FIFO open is answered as the first was.
    @Test func aReloadOfOneWidgetWritesItsFilesAndAnUnknownNameIsLogged() throws {
        let driven = try DrivenDaemon(
            config: "widgets:\n  quote:\n    kind: quotes\n    intent:\n      category: focus\n"
                + "    output: [plain, i3blocks, waybar]\n")
        #expect(driven.turns(until: "the first timeline") { driven.hasTimeline("quote") })
        let statusPath = driven.runtime + "/status/quote.json"
        let recordPath = driven.output + "/quote.json"
        let (status, record) = (try #require(Self.inode(statusPath)), try #require(Self.inode(recordPath)))
        let first = try #require(driven.read("quote.plain")).dropLast()
        let next = try #require(QuotesKind.quote(in: "focus", after: String(first)))
        let fifo = try #require(FileHandle(forWritingAtPath: driven.runtime + "/control"))
        defer { try? fifo.close() }
        fifo.write(Data("reload nosuchwidget\nreload quote\n".utf8))
        #expect(driven.turns(until: "the next quote in the file") { driven.read("quote.plain") == next + "\n" })
        // Each is renamed into place after the bar files, so a new inode.
        #expect(
            driven.turns(until: "the record and the status") {
                Self.inode(statusPath) != status && Self.inode(recordPath) != record
            })
        #expect(driven.read("quote.json")?.contains(next) == true)
        #expect(driven.log.contains("'reload nosuchwidget' names no widget"))
        // The same line again, with the writer still open: answered as the first was.
        let after = try #require(QuotesKind.quote(in: "focus", after: next))
        fifo.write(Data("reload quote\n".utf8))
        #expect(driven.turns(until: "the quote after that") { driven.read("quote.plain") == after + "\n" })
    }

    /// The output directory swapped for a symbolic link while the daemon runs: nothing is written through the link, a
    /// `--wait` is told the write failed, and every file comes back once a proper directory is back.
    @Test func aLinkAtTheOutputDirectoryIsNeverWrittenThroughAndEveryFileComesBack() throws {
        let names = (1...20).map { "quote\($0)" }
        let driven = try DrivenDaemon(config: "widgets:\n" + names.map { "  \($0):\n    kind: quotes\n" }.joined())
        let manager = FileManager.default
        func complete() -> Bool {
            names.allSatisfy { driven.read($0 + ".plain") != nil && driven.read($0 + ".json") != nil }
        }
        #expect(driven.turns(until: "all 20 widgets' files") { complete() })

        // Moved away and a link to a directory of the attacker's (here: the test's) put in its place.
        let elsewhere = driven.directory.url.path + "/elsewhere"
        try manager.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try manager.moveItem(atPath: driven.output, toPath: driven.output + ".old")
        try manager.createSymbolicLink(atPath: driven.output, withDestinationPath: elsewhere)
        driven.settle()
        driven.advance(by: DirectoryGuard.repairDelay)
        #expect(driven.log.contains("is a directory of this user's again"), "\(driven.log)")

        // A reload cannot write: its acknowledgement says so.
        #expect(driven.writeToFIFO("reload all ack=refused\n"))
        #expect(driven.turns(until: "the refusal") { driven.acknowledgement("refused") != nil })
        let refused = driven.acknowledgement("refused") ?? ""
        #expect(!refused.hasPrefix("done") && refused.contains("symbolic link"), "\(refused)")
        #expect(try manager.contentsOfDirectory(atPath: elsewhere).isEmpty)

        // A proper (empty) directory back in its place: every file of every widget is written again.
        try manager.removeItem(atPath: driven.output)
        try manager.createDirectory(atPath: driven.output, withIntermediateDirectories: true)
        driven.settle()
        driven.advance(by: DirectoryGuard.repairDelay)
        #expect(driven.turns(until: "all 20 widgets' files again") { complete() })
        #expect(try manager.contentsOfDirectory(atPath: elsewhere).isEmpty)
        #expect(driven.reloadIsAcknowledged("all", token: "restored"))
        #expect(
            driven.acknowledgement("restored")?.hasPrefix("done") == true, "\(driven.acknowledgement("restored") ?? "")"
        )
        #expect(complete())
    }
}
