import Foundation
import TestSupport
import Testing

/// The CLI as the app, on a real store file in a temporary `XDG_DATA_HOME`.
@Suite("widgetd motivations, todos and entities, end to end", .spawnsDaemons)
struct AppEndToEndTests {
    struct Home {
        let directory: TemporaryDirectory
        var environment: [String: String] {
            [
                "XDG_DATA_HOME": directory.url.path + "/data", "XDG_RUNTIME_DIR": directory.url.path + "/run",
                "HOME": directory.url.path,
            ]
        }

        init() throws {
            directory = try TemporaryDirectory()
        }

        /// Runs on a thread of its own (`awaitingPrograms`): a wait for the CLI would hold one of the pool's threads.
        func widgetd(_ arguments: String...) async throws -> ProcessResult {
            let environment = environment
            return try await awaitingPrograms { try runWidgetd(arguments, environment: environment) }
        }
    }

    @Test func addListFavouriteColourSearchRemove() async throws {
        let home = try Home()
        defer { home.directory.remove() }
        let empty = try await home.widgetd("motivations", "list")
        #expect(empty.stdout == "No motivations yet: widgetd motivations add [MESSAGE]\n")
        let added = try await home.widgetd("motivations", "add", "Push", "beyond", "limits.")
        #expect(added.status == 0, "\(added.stderr)")
        let id = String(try #require(added.stdout.split(separator: " ").dropFirst().first))
        #expect(id.count == 8)
        _ = try await home.widgetd("motivations", "add", "Café time")
        #expect(try await home.widgetd("motivations", "favorite", id).stdout.hasPrefix("★ favourite: \(id)"))
        #expect(try await home.widgetd("motivations", "color", id, "#1e3a8a").status == 0)
        let list = try await home.widgetd("motivations", "list").stdout.split(separator: "\n")
        #expect(list.count == 2)
        #expect(list[0].hasSuffix("Café time"))  // newest first
        #expect(list[1].hasPrefix("\(id)  ★  #1e3a8a  "))
        #expect(try await home.widgetd("motivations", "search", "CAFE").stdout.contains("Café time"))
        let none = try await home.widgetd("motivations", "search", "no such text")
        #expect(none.status == 1 && none.stderr == "widgetd: error: no motivation matches 'no such text'\n")
        let noEntity = try await home.widgetd("entities", "motivations", "--match", "no such text")
        #expect(noEntity.status == 1 && noEntity.stderr == "widgetd: error: no motivation matches 'no such text'\n")
        let badColour = try await home.widgetd("motivations", "color", id, "blue")
        #expect(badColour.status == 64)  // a malformed value is a usage error
        let unknown = try await home.widgetd("motivations", "favorite", "ffffffff")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("ffffffff"))
        #expect(try await home.widgetd("motivations", "rm", id).stdout.hasPrefix("removed \(id)"))
        #expect(try await home.widgetd("motivations", "list").stdout.split(separator: "\n").count == 1)
    }

    @Test func addWithoutAMessageUsesEachSeedSampleOnceThenSaysSo() async throws {
        let home = try Home()
        defer { home.directory.remove() }
        var messages: Set<String> = []
        for _ in 0..<20 {
            let result = try await home.widgetd("motivations", "add")
            #expect(result.status == 0)
            messages.insert(String(result.stdout.dropFirst("added 12345678  ".count).dropLast()))
        }
        #expect(messages.count == 20)
        #expect(messages.contains("Consistency is your superpower."))
        let exhausted = try await home.widgetd("motivations", "add")
        #expect(exhausted.status == 1)
        #expect(exhausted.stderr.contains("all 20 sample motivations are stored already"))
    }

    @Test func entitiesIsThePickerWithIdsToPaste() async throws {
        let home = try Home()
        defer { home.directory.remove() }
        _ = try await home.widgetd("motivations", "add", "Push beyond limits.")
        _ = try await home.widgetd("motivations", "add", "Trust the process.")
        let all = try await home.widgetd("entities", "motivations")
        #expect(all.stdout.split(separator: "\n").filter { $0.split(separator: " ").first?.count == 32 }.count == 2)
        let matched = try await home.widgetd("entities", "motivations", "--match", "limits")
        let lines = matched.stdout.split(separator: "\n")
        #expect(lines.first?.hasSuffix("Push beyond limits.") == true)
        #expect(lines.last?.hasPrefix("In widgets.yaml:  intent: {motivation: ") == true)
        #expect(try await home.widgetd("entities", "motivations", "--match", "zzz").status == 1)
    }

    @Test func todosAddToggleRemoveAndAmbiguity() async throws {
        let home = try Home()
        defer { home.directory.remove() }
        #expect(try await home.widgetd("todos", "list").stdout == "No todos yet\n")
        _ = try await home.widgetd("todos", "add", "Buy", "milk")
        _ = try await home.widgetd("todos", "add", "Call mom")
        #expect(try await home.widgetd("todos", "toggle", "buy milk").stdout == "◉ done: Buy milk\n")
        let list = try await home.widgetd("todos", "list").stdout.split(separator: "\n")
        // In the order they were added: the done one keeps its place.
        #expect(list.map { $0.hasPrefix("○") } == [false, true])
        // And its help says so (it said open ones first, then done ones, from before the order was kept).
        #expect(try await home.widgetd("todos", "--help").stdout.contains("In the order added, done or not"))
        #expect(try await home.widgetd("todos", "rm", "Call mom").status == 0)
        let missing = try await home.widgetd("todos", "toggle", "Nothing like it")
        #expect(missing.status == 1)
    }
}

/// `preview` of a store-backed kind reads the store the app commands edit: with a daemon running, its store, whatever
/// config the command finds (a real daemon: the CLI knows a running daemon by its process, which a driven one in the
/// tests' process is not).
@Suite("preview of a store-backed kind", .spawnsDaemons)
struct PreviewStoreTests {
    @Test func previewShowsWhatTheAppCommandsAddedToTheRunningDaemonsStore() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let store = scratch.url.path + "/elsewhere/store.sqlite"
        let daemon = try DaemonUnderTest(
            config: "settings:\n  store: \(store)\nwidgets:\n  todo:\n    kind: todos\n    output: [plain]\n")
        defer { daemon.stop() }
        #expect(await daemon.waitFor("the first timeline") { daemon.hasTimeline("todo") })
        // No --config and none at the default path: both follow the running daemon.
        let environment = daemon.environment
        func widgetd(_ arguments: String...) async throws -> ProcessResult {
            try await awaitingPrograms { try runWidgetd(arguments, environment: environment) }
        }
        #expect(try await widgetd("todos", "add", "Buy milk").status == 0)
        let preview = try await widgetd("preview", "todos")
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(preview.stdout.contains("Buy milk"), "\(preview.stdout)")
        #expect(!FileManager.default.fileExists(atPath: daemon.directory.url.path + "/data/widgetd/store.sqlite"))
    }
}

/// A store locked by another process: the command gives up within its deadline (`AppCommands.lockWait`), names the
/// file and says nothing was changed; it used to wait SQLite's busy timeout once per retry, 46 s, without a word.
@Suite("the app on a locked store", .spawnsDaemons)
struct LockedStoreTests {
    @Test(.aheadInLine) func aLockedStoreIsNamedAndNothingIsChanged() async throws {
        let home = try AppEndToEndTests.Home()
        defer { home.directory.remove() }
        #expect(try await home.widgetd("todos", "add", "first").status == 0)
        let path = home.directory.url.path + "/data/widgetd/store.sqlite"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c",
            "import sqlite3,sys,time\nc=sqlite3.connect(sys.argv[1],isolation_level=None)\nc.execute('BEGIN EXCLUSIVE')\n"
                + "print('locked',flush=True)\ntime.sleep(60)",
            path,
        ]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        // SIGKILL: a test thread's blocked signals are the child's too, and SIGTERM would wait for the sleep to end.
        func release() {
            holder.killAndWait()
        }
        defer { release() }
        #expect(output.fileHandleForReading.availableData.starts(with: Array("locked".utf8)))
        // The command now waits out its 10 s, asleep: the turn goes to the next test.
        await DaemonGate.giveBackTurn()
        let environment = home.environment
        let added = try await awaitingPrograms { try runWidgetd(["todos", "add", "second"], environment: environment) }
        #expect(added.status == 1)
        #expect(
            added.stderr.hasPrefix("widgetd: error: \(path): SQLite error 5: database is locked"), "\(added.stderr)")
        #expect(added.stderr.contains("another process holds it, and nothing was changed"), "\(added.stderr)")
        release()
        #expect(try await home.widgetd("todos", "list").stdout.contains("second") == false)
    }
}

@Suite("clicks and the store with the daemon running", .spawnsDaemons)
struct InteractiveEndToEndTests {
    @Test(.aheadInLine) func manyProcessesWritingAtOnceLoseNothing() async throws {
        let daemon = try DaemonUnderTest(
            config: "widgets:\n  motivation:\n    kind: motivations\n  todo:\n    kind: todos\n")
        let env = daemon.environment
        #expect(try runWidgetd(["motivations", "add", "Shared"], environment: env).status == 0)
        let id = try #require(
            try runWidgetd(["motivations", "list"], environment: env).stdout.split(separator: " ").first)
        // Four processes at once, each with 25 favourite toggles and 25 to-dos: 200 writes, while the daemon
        // reads the same store for every reload they trigger, and the clicks toggle too.
        let writers = (0..<4).map { writer in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            let binary = widgetdBinary.path
            process.arguments = [
                "-c",
                "for i in $(seq 1 25); do \(binary) motivations favorite \(id) >/dev/null || exit 1; "
                    + "\(binary) todos add \"task \(writer)-$i\" >/dev/null || exit 1; done",
            ]
            process.environment = env.merging(["PATH": "/usr/bin:/bin"]) { $1 }
            return process
        }
        for writer in writers { try writer.run() }
        // Each click returns once its intent has landed.
        for _ in 0..<10 { #expect(try await daemon.cli(["click", "motivation", "--wait"]).status == 0) }
        for writer in writers {
            try writer.waitForExitOrThrow()
            #expect(writer.terminationStatus == 0)
        }
        // 100 toggles from the writers and 10 from clicks: an even number, so not a favourite.
        let list = try runWidgetd(["motivations", "list"], environment: env).stdout
        #expect(list.hasPrefix("\(id)  ☆  #"), "\(list)")
        let todos = try runWidgetd(["todos", "list"], environment: env).stdout.split(separator: "\n")
        #expect(todos.count == 100)
        #expect(Set(todos.map { $0.split(separator: " ").last }).count == 100)
        #expect(!daemon.log.contains("database is locked"))
        #expect(
            await daemon.waitFor("the widget to show the hollow star") {
                daemon.read("motivation.plain") == "☆ Shared\n"
            })
    }
}

/// Which store `motivations`, `todos` and `entities` edit (`StoreLocation`) with no daemon running: the one the config
/// names; never a default put in place of a config that could not be read. The running daemon's, whatever the config,
/// is DaemonTests' `DrivenStoreLocationTests`.
@Suite("the store the CLI edits")
struct StoreLocationTests {
    @Test func aConfigWhoseSettingsCannotBeReadIsNamedAndNothingIsEdited() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = [
            "XDG_DATA_HOME": directory.url.path + "/data", "XDG_RUNTIME_DIR": directory.url.path + "/run",
            "HOME": directory.url.path,
        ]
        let broken = try directory.write(
            "broken.yaml", "settings:\n  store: /tmp/x.sqlite\nwidgets:\n  t: {kind: todos\n")
        let relative = try directory.write("relative.yaml", "settings:\n  store: relative/store.sqlite\nwidgets: {}\n")
        let missing = directory.url.path + "/widget.yaml"
        for (config, place) in [
            (broken, "broken.yaml:4:6: "), (relative, "relative.yaml:2:10:"), (missing, "widget.yaml: no such file"),
        ] {
            let result = try runWidgetd(["todos", "add", "Pay rent", "--config", config], environment: environment)
            #expect(result.status == 1, "\(config): \(result.stdout)")
            #expect(result.stderr.hasPrefix("widgetd: error: cannot tell which store to use: "), "\(result.stderr)")
            #expect(result.stderr.contains(place), "\(result.stderr)")
        }
        let viaEnvironment = try runWidgetd(
            ["todos", "list"], environment: environment.merging(["WIDGETD_CONFIG": missing]) { $1 })
        #expect(viaEnvironment.status == 1)
        // Nothing went to the default store meanwhile; with no config anywhere, that store is the one used.
        #expect(!FileManager.default.fileExists(atPath: directory.url.path + "/data/widgetd/store.sqlite"))
        #expect(try runWidgetd(["todos", "list"], environment: environment).stdout == "No todos yet\n")
        // Mistakes outside `settings:` leave the store known.
        let elsewhere = try directory.write(
            "elsewhere.yaml", "settings:\n  store: \(directory.url.path)/own.sqlite\nwidgets:\n  t: {kind: todoz}\n")
        #expect(try runWidgetd(["todos", "add", "Ok", "--config", elsewhere], environment: environment).status == 0)
        #expect(FileManager.default.fileExists(atPath: directory.url.path + "/own.sqlite"))
    }
}
