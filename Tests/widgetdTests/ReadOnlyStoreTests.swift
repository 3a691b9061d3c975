import Foundation
import TestSupport
import Testing

/// A store on a read-only file system (a snapshot, a read-only bind mount) is still read, and a write to it fails
/// saying so: SQLite cannot make the WAL's shared-memory file there, and the store could not even be listed.
///
/// The read-only mount is a real one, in a mount namespace of the test's own (`unshare --map-root-user --mount`,
/// which needs no privilege where user namespaces are allowed).
@Suite("a store on a read-only file system")
struct ReadOnlyStoreTests {
    @Test func itIsReadAndAWriteSaysWhy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.url.path + "/data"
        let mount = directory.url.path + "/mounted"
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let environment = ["XDG_DATA_HOME": data, "HOME": directory.url.path]
        #expect(try runWidgetd(["todos", "add", "Buy milk"], environment: environment).status == 0)
        #expect(
            try runWidgetd(["motivations", "add", "Keep going"], environment: environment).status == 0)

        let unshare = "/usr/bin/unshare"
        try #require(
            FileManager.default.isExecutableFile(atPath: unshare), "\(unshare) is missing (Debian's util-linux)")
        let binary = widgetdBinary.path
        let script = """
            mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" || exit 90
            export XDG_DATA_HOME="$2"
            "$3" todos list && "$3" motivations list && "$3" todos add "Not stored"
            """
        let result = try runProgram(
            unshare,
            ["--map-root-user", "--mount", "--propagation", "private", "sh", "-c", script, "sh", data, mount, binary],
            environment: ["HOME": directory.url.path])
        #expect(result.status != 90, "the read-only mount: \(result.stderr)")
        #expect(result.stdout.contains("Buy milk"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("Keep going"), "\(result.stdout)\(result.stderr)")
        #expect(result.status == 1)
        #expect(result.stderr.contains("attempt to write a readonly database"), "\(result.stderr)")
        // Nothing was written beside the store, and the store still has only what it had.
        let listed = try runWidgetd(["todos", "list"], environment: environment)
        #expect(!listed.stdout.contains("Not stored"))
    }
}
