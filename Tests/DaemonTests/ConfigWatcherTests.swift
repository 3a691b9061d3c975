import Foundation
import TestSupport
import Testing

@testable import Daemon
@testable import System

/// Which file events re-read widgets.yaml (`ConfigWatcher`), on a real inotify in a scratch directory and no daemon:
/// the kernel queues an event before the call that caused it returns, so each is read at once, with no waiting.
@Suite("the config watcher: what counts as a change")
struct ConfigWatcherTests {
    /// A config at `dotfiles/widgetd/widgets.yaml` in a fresh directory, watched.
    private struct Setup {
        let directory: TemporaryDirectory
        let inotify: Inotify
        var watcher: ConfigWatcher
        var configDirectory: String { directory.url.path + "/dotfiles/widgetd" }

        init(link: Bool = false) throws {
            directory = try TemporaryDirectory()
            inotify = try Inotify()
            try FileManager.default.createDirectory(
                atPath: directory.url.path + "/dotfiles/widgetd", withIntermediateDirectories: true)
            let file = directory.url.path + "/dotfiles/widgetd/widgets.yaml"
            try "widgets: {}\n".write(toFile: file, atomically: false, encoding: .utf8)
            var path = file
            if link {
                path = directory.url.path + "/linked.yaml"
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: file)
            }
            watcher = ConfigWatcher(path: path)
            watcher.watchDirectory(with: inotify, others: [])
            watcher.watchTarget(with: inotify, others: [])
        }

        func write(_ name: String, in directory: String? = nil) throws {
            try "widgets: {}\n".write(
                toFile: (directory ?? configDirectory) + "/" + name, atomically: false, encoding: .utf8)
        }
    }

    @Test func aSaveInPlaceOrByRenameIsAChangeAndOtherFilesAreNot() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        #expect(setup.watcher.directoryWatch != nil)
        #expect(setup.watcher.parentWatch == nil, "the parent is watched only while the directory is missing")

        try setup.write("notes.txt")
        #expect(!setup.watcher.fileChanged(in: setup.inotify.readEvents()), "another file's save")

        try setup.write("widgets.yaml")
        #expect(setup.watcher.fileChanged(in: setup.inotify.readEvents()), "a save in place")

        try setup.write(".widgets.yaml.swp")
        _ = setup.inotify.readEvents()
        #expect(rename(setup.configDirectory + "/.widgets.yaml.swp", setup.configDirectory + "/widgets.yaml") == 0)
        let renamed = setup.inotify.readEvents()
        #expect(setup.watcher.fileChanged(in: renamed), "a save by rename")
        #expect(setup.watcher.directoryChange(in: renamed) == nil)

        #expect(unlink(setup.configDirectory + "/widgets.yaml") == 0)
        #expect(setup.watcher.fileChanged(in: setup.inotify.readEvents()), "a deletion, which the re-read reports")
    }

    /// A file made but not yet written (`cp` makes it, then writes it) is no save: it would be read empty.
    @Test func aFileMadeButNotYetWrittenIsNoChange() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        #expect(unlink(setup.configDirectory + "/widgets.yaml") == 0)
        _ = setup.inotify.readEvents()
        let made = open(setup.configDirectory + "/widgets.yaml", O_CREAT | O_WRONLY, 0o600)
        #expect(made >= 0)
        defer { close(made) }
        #expect(!setup.watcher.fileChanged(in: setup.inotify.readEvents()))
    }

    @Test func eventsLostToAnOverflowAreAChange() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let overflow = Inotify.Event(watch: nil, mask: .queueOverflow, cookie: 0, name: "")
        #expect(setup.watcher.fileChanged(in: [overflow]))
    }

    @Test func aDirectoryDeletedIsWaitedForThroughItsParentAndFollowedWhenItIsBack() throws {
        var setup = try Setup()
        defer { setup.directory.remove() }
        try FileManager.default.removeItem(atPath: setup.configDirectory)
        #expect(setup.watcher.directoryChange(in: setup.inotify.readEvents()) == .gone)
        setup.watcher.watchDirectory(with: setup.inotify, others: [])
        #expect(setup.watcher.directoryWatch == nil)
        #expect(setup.watcher.parentWatch != nil)

        // Other entries made in the parent are not the directory back.
        try FileManager.default.createDirectory(
            atPath: setup.directory.url.path + "/dotfiles/other", withIntermediateDirectories: false)
        #expect(setup.watcher.directoryChange(in: setup.inotify.readEvents()) == nil)

        try FileManager.default.createDirectory(atPath: setup.configDirectory, withIntermediateDirectories: false)
        #expect(setup.watcher.directoryChange(in: setup.inotify.readEvents()) == .back)
        setup.watcher.watchDirectory(with: setup.inotify, others: [])
        #expect(setup.watcher.directoryWatch != nil)
        #expect(setup.watcher.parentWatch == nil, "the parent's watch is dropped once the directory is watched")
        _ = setup.inotify.readEvents()

        try setup.write("widgets.yaml")
        #expect(setup.watcher.fileChanged(in: setup.inotify.readEvents()), "a save in the new directory")
    }

    @Test func aDirectoryMovedAwayIsGoneAndTheOneMovedInIsFollowed() throws {
        var setup = try Setup()
        defer { setup.directory.remove() }
        let parent = setup.directory.url.path + "/dotfiles"
        try FileManager.default.createDirectory(atPath: parent + "/widgetd.new", withIntermediateDirectories: false)
        try setup.write("widgets.yaml", in: parent + "/widgetd.new")
        _ = setup.inotify.readEvents()
        #expect(rename(parent + "/widgetd", parent + "/widgetd.old") == 0)
        #expect(rename(parent + "/widgetd.new", parent + "/widgetd") == 0)
        #expect(setup.watcher.directoryChange(in: setup.inotify.readEvents()) == .gone)
        let old = setup.watcher.directoryWatch
        setup.watcher.watchDirectory(with: setup.inotify, others: [])
        #expect(setup.watcher.directoryWatch != nil)
        #expect(setup.watcher.directoryWatch != old, "the old directory, moved away, is not the config's any more")
        _ = setup.inotify.readEvents()
        try setup.write("widgets.yaml", in: parent + "/widgetd.old")
        #expect(!setup.watcher.fileChanged(in: setup.inotify.readEvents()), "a save in the old directory")
        try setup.write("widgets.yaml")
        #expect(setup.watcher.fileChanged(in: setup.inotify.readEvents()))
    }

    /// A watch another part of the daemon holds on the same directory is not dropped with the config's.
    @Test func aWatchSharedWithAnotherPartIsKept() throws {
        var setup = try Setup()
        defer { setup.directory.remove() }
        let shared = try setup.inotify.watch(directory: setup.configDirectory, mask: [.delete], adding: true)
        #expect(shared == setup.watcher.directoryWatch)
        let parent = setup.directory.url.path + "/dotfiles"
        #expect(rename(parent + "/widgetd", parent + "/widgetd.old") == 0)
        try FileManager.default.createDirectory(atPath: setup.configDirectory, withIntermediateDirectories: false)
        _ = setup.inotify.readEvents()
        setup.watcher.watchDirectory(with: setup.inotify, others: [shared])
        // Still watched: a deletion in the moved directory is still reported on the shared watch.
        #expect(unlink(parent + "/widgetd.old/widgets.yaml") == 0)
        #expect(setup.inotify.readEvents().contains { $0.watch == shared && $0.mask.contains(.delete) })
    }

    @Test func aLinkedConfigIsFollowedWhereItPoints() throws {
        let setup = try Setup(link: true)
        defer { setup.directory.remove() }
        #expect(setup.watcher.target == setup.configDirectory + "/widgets.yaml")
        #expect(setup.watcher.targetWatch != nil)
        try setup.write("notes.txt")
        #expect(!setup.watcher.fileChanged(in: setup.inotify.readEvents()), "another file beside the target")
        try setup.write("widgets.yaml")
        #expect(setup.watcher.fileChanged(in: setup.inotify.readEvents()), "the target saved in place")
    }
}
