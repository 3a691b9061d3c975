import Foundation
import TestSupport
import Testing

@testable import Daemon
@testable import System

/// When the output and runtime directories are repaired (`DirectoryGuard`): on a real inotify in a scratch directory,
/// whose events the kernel has queued before the call that caused them returns, and a clock the test moves, so the
/// repair's delay passes with no sleeping and no daemon.
@Suite("the directory guard: repairs a moment after deletions stop")
struct DirectoryGuardTests {
    private static let start = Date(timeIntervalSince1970: 2_000_000_000)

    /// `run/` (the runtime directory) with `run/out/` (the output directory) in it, as by default, both watched.
    private struct Setup {
        let directory: TemporaryDirectory
        let inotify: Inotify
        let clock = ManualClock(DirectoryGuardTests.start)
        var guarding: DirectoryGuard
        var runtime: String { directory.url.path + "/run" }
        var output: String { runtime + "/out" }

        init() throws {
            directory = try TemporaryDirectory()
            inotify = try Inotify()
            try FileManager.default.createDirectory(
                atPath: directory.url.path + "/run/out", withIntermediateDirectories: true)
            guarding = DirectoryGuard(output: directory.url.path + "/run/out", runtime: directory.url.path + "/run")
            let watched = guarding.watchOutput(with: inotify)
            #expect(watched)
            guarding.watchRuntime(with: inotify, others: [])
        }

        /// Takes the events queued, as the daemon's loop does; returns whether the writer must check the path.
        mutating func takeEvents() -> (outputPath: Bool, runtime: Bool) {
            let events = inotify.readEvents()
            return (
                guarding.takeOutputEvents(events, now: clock.now), guarding.takeRuntimeEvents(events, now: clock.now)
            )
        }

        func make(_ path: String) throws {
            try "x".write(toFile: path, atomically: false, encoding: .utf8)
        }
    }

    @Test func aDeletedOutputIsRepairedOnceDeletionsHaveStoppedForTheDelay() throws {
        var setup = try Setup()
        defer { setup.directory.remove() }
        for name in ["a.plain", "b.plain", "c.plain"] { try setup.make(setup.output + "/" + name) }
        _ = setup.takeEvents()
        #expect(setup.guarding.outputRepairDue == nil, "the daemon's own writes set off no repair")

        #expect(unlink(setup.output + "/a.plain") == 0)
        let pathChanged = setup.takeEvents().outputPath
        #expect(pathChanged == false, "a file deleted leaves the directory where it was")
        #expect(setup.guarding.outputRepairDue == Self.start + DirectoryGuard.repairDelay)
        // Another deletion before the repair: the repair moves after it, so an `rm -r` under way is not raced.
        setup.clock.advance(by: 0.15)
        #expect(unlink(setup.output + "/b.plain") == 0)
        _ = setup.takeEvents()
        setup.clock.advance(by: 0.1)
        #expect(!setup.guarding.outputRepairIsDue(now: setup.clock.now), "0.25 s after the first, 0.1 s after the last")
        setup.clock.advance(by: 0.1)
        #expect(setup.guarding.outputRepairIsDue(now: setup.clock.now))
        let whole = setup.guarding.beginOutputRepair()
        #expect(whole == false, "files, not the directory")
        #expect(setup.guarding.outputRepairDue == nil)
        #expect(!setup.guarding.outputRepairIsDue(now: setup.clock.now))
    }

    /// The daemon's temporary files (`.name.pid`, removed when a write fails) are not outputs: a full disk would
    /// otherwise retry every repair delay, for ever.
    @Test func theDaemonsOwnTemporaryFilesGoingSetOffNoRepair() throws {
        var setup = try Setup()
        defer { setup.directory.remove() }
        try setup.make(setup.output + "/.a.plain.123")
        _ = setup.takeEvents()
        #expect(unlink(setup.output + "/.a.plain.123") == 0)
        _ = setup.takeEvents()
        #expect(setup.guarding.outputRepairDue == nil)
    }

    @Test func anOutputDirectoryRemovedIsReplacedWholeAndItsPathLookedAtAgain() throws {
        var setup = try Setup()
        defer { setup.directory.remove() }
        try setup.make(setup.output + "/a.plain")
        _ = setup.takeEvents()
        try FileManager.default.removeItem(atPath: setup.output)
        let taken = setup.takeEvents()
        #expect(taken.outputPath, "the path names no directory now")
        #expect(!taken.runtime, "out/ is no entry the runtime's repair makes")
        #expect(setup.guarding.outputReplaced)
        setup.clock.advance(by: DirectoryGuard.repairDelay)
        #expect(setup.guarding.outputRepairIsDue(now: setup.clock.now))
        let whole = setup.guarding.beginOutputRepair()
        #expect(whole == true, "the whole directory")
        #expect(!setup.guarding.outputReplaced, "once")
    }

    /// A directory (or a link) put where the output directory was is seen through the parent's watch.
    @Test func somethingPutWhereTheOutputDirectoryWasIsAReplacement() throws {
        var setup = try Setup()
        defer { setup.directory.remove() }
        #expect(rename(setup.output, setup.runtime + "/out.old") == 0)
        _ = setup.takeEvents()
        _ = setup.guarding.beginOutputRepair()
        setup.guarding.dropOutputWatch(with: setup.inotify, others: [])
        #expect(symlink("/tmp", setup.output) == 0)
        let pathChanged = setup.takeEvents().outputPath
        #expect(pathChanged)
        #expect(setup.guarding.outputReplaced)
        #expect(setup.guarding.outputRepairDue == Self.start + DirectoryGuard.repairDelay)
    }

    @Test func eventsLostToAnOverflowRepairBoth() throws {
        var setup = try Setup()
        defer { setup.directory.remove() }
        let overflow = [Inotify.Event(watch: nil, mask: .queueOverflow, cookie: 0, name: "")]
        let outputPath = setup.guarding.takeOutputEvents(overflow, now: setup.clock.now)
        let runtime = setup.guarding.takeRuntimeEvents(overflow, now: setup.clock.now)
        #expect(outputPath && runtime)
        #expect(setup.guarding.outputRepairDue != nil && setup.guarding.runtimeRepairDue != nil)
    }

    @Test func theRuntimesOwnEntriesAreRepairedAndOtherFilesAreNot() throws {
        var setup = try Setup()
        defer { setup.directory.remove() }
        try setup.make(setup.runtime + "/notes")
        try setup.make(setup.runtime + "/control")
        _ = setup.takeEvents()
        // The FIFO made is a change too (one put in its place is checked): repaired before the test begins.
        setup.guarding.beginRuntimeRepair()
        #expect(unlink(setup.runtime + "/notes") == 0)
        let notesTouched = setup.takeEvents().runtime
        #expect(notesTouched == false)
        #expect(setup.guarding.runtimeRepairDue == nil)

        #expect(unlink(setup.runtime + "/control") == 0)
        let fifoTouched = setup.takeEvents().runtime
        #expect(fifoTouched, "the FIFO gone: the descriptors are let go of at once")
        #expect(setup.guarding.runtimeRepairDue == Self.start + DirectoryGuard.repairDelay)
        #expect(!setup.guarding.runtimeRepairIsDue(now: setup.clock.now))
        setup.clock.advance(by: DirectoryGuard.repairDelay)
        #expect(setup.guarding.runtimeRepairIsDue(now: setup.clock.now))
        setup.guarding.beginRuntimeRepair()
        #expect(setup.guarding.runtimeRepairDue == nil)
    }

    @Test func theRuntimeDirectoryRemovedIsRepairedAndWatchedAgain() throws {
        var setup = try Setup()
        defer { setup.directory.remove() }
        let old = setup.guarding.runtimeWatch
        try FileManager.default.removeItem(atPath: setup.runtime)
        let touched = setup.takeEvents().runtime
        #expect(touched)
        try FileManager.default.createDirectory(atPath: setup.runtime, withIntermediateDirectories: false)
        setup.guarding.watchRuntime(with: setup.inotify, others: [])
        #expect(setup.guarding.runtimeWatch != nil && setup.guarding.runtimeWatch != old)
        setup.guarding.beginRuntimeRepair()
        _ = setup.inotify.readEvents()
        try setup.make(setup.runtime + "/lock")
        #expect(unlink(setup.runtime + "/lock") == 0)
        let lockTouched = setup.takeEvents().runtime
        #expect(lockTouched, "the new directory's lock")
    }

    /// The runtime directory removed and made again, with the output directory in it: the output directory's parent
    /// is watched again on the new one, so a link put where the output directory was is seen.
    @Test func theOutputDirectorysParentIsWatchedAgainWithTheRuntimeDirectory() throws {
        var setup = try Setup()
        defer { setup.directory.remove() }
        #expect(setup.guarding.outputParentWatch == setup.guarding.runtimeWatch, "one directory, one watch")
        try FileManager.default.removeItem(atPath: setup.runtime)
        _ = setup.takeEvents()
        // The runtime's repair: the directory made again and watched, then the output directory's (`repairRuntime`).
        try FileManager.default.createDirectory(atPath: setup.output, withIntermediateDirectories: true)
        setup.guarding.watchRuntime(with: setup.inotify, others: [])
        setup.guarding.beginRuntimeRepair()
        _ = setup.guarding.beginOutputRepair()
        setup.guarding.dropOutputWatch(with: setup.inotify, others: [])
        let watched = setup.guarding.watchOutput(with: setup.inotify)
        #expect(watched)
        #expect(setup.guarding.outputParentWatch == setup.guarding.runtimeWatch)
        _ = setup.inotify.readEvents()

        #expect(rmdir(setup.output) == 0)
        _ = setup.takeEvents()
        _ = setup.guarding.beginOutputRepair()
        setup.guarding.dropOutputWatch(with: setup.inotify, others: [])
        #expect(symlink("/tmp", setup.output) == 0)
        let pathChanged = setup.takeEvents().outputPath
        #expect(pathChanged, "the link seen through the new parent's watch")
        #expect(setup.guarding.outputReplaced)
    }

    /// The wall clock set while a repair waits: the repair comes the delay after the new time, not at the old date.
    @Test func aClockChangeMovesAWaitingRepairAfterTheNewTime() throws {
        var setup = try Setup()
        defer { setup.directory.remove() }
        setup.guarding.clockChanged(now: setup.clock.now)
        #expect(setup.guarding.outputRepairDue == nil, "no repair made up")
        try setup.make(setup.output + "/a.plain")
        #expect(unlink(setup.output + "/a.plain") == 0)
        _ = setup.takeEvents()
        setup.clock.advance(by: -3600)
        setup.guarding.clockChanged(now: setup.clock.now)
        #expect(setup.guarding.outputRepairDue == setup.clock.now + DirectoryGuard.repairDelay)
    }
}
