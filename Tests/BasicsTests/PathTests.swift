import Basics
import Foundation
import Testing

/// `Path` against the NSString methods it replaces (issue 15: no ICU in the daemon).
@Suite("path text")
struct PathTests {
    static let paths = [
        "", "/", "//", "a", "a/", "/a", "/a/", "/a/b", "/a/b/", "a/b", "a//b", "/a//b//", "///a", "/tmp/scratch.tiff",
        "~/x", ".", "..", "./a", "../a/b", "/a/./b", "a/b/c.d/e", "/ü/é", "name with space/x",
    ]

    @Test(arguments: paths)
    func directoryIsDeletingLastPathComponent(_ path: String) {
        // This toolchain's NSString traps (SIGILL in `_startOfLastPathComponent`) on a path of one component, such as
        // `a` or `a/`; its documented answer there is "".
        var withoutTrailingSlashes = Substring(path)
        while withoutTrailingSlashes.count > 1 && withoutTrailingSlashes.hasSuffix("/") {
            withoutTrailingSlashes = withoutTrailingSlashes.dropLast()
        }
        guard path.isEmpty || withoutTrailingSlashes.contains("/") else {
            #expect(Path.directory(of: path) == "")
            return
        }
        #expect(Path.directory(of: path) == (path as NSString).deletingLastPathComponent)
    }

    @Test(arguments: paths)
    func lastComponentIsLastPathComponent(_ path: String) {
        #expect(Path.lastComponent(of: path) == (path as NSString).lastPathComponent)
    }

    @Test(arguments: paths)
    func appendingIsAppendingPathComponent(_ path: String) {
        for component in ["b", "b/c", "/b", "b/", "", ".local/share/widgetd/store.sqlite"] {
            #expect(
                Path.appending(component, to: path) == (path as NSString).appendingPathComponent(component),
                "\(path) + \(component)")
        }
    }

    /// NSString itself traps on `///` (in `_startOfLastPathComponent`), so that case is checked against its rule for `//`.
    @Test func onlySlashesReadAsEmpty() {
        #expect(Path.directory(of: "a") == "" && Path.directory(of: "a/") == "")
        #expect(Path.directory(of: "///") == "")
        #expect(Path.lastComponent(of: "///") == "")
        #expect(Path.appending("b", to: "///") == "///b")
    }

    @Test func theHomeDirectoryIsHomeWhenSet() {
        #expect(Path.homeDirectory() == NSHomeDirectory())
    }
}
