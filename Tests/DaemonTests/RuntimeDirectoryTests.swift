import Config
import Foundation
import TestSupport
import Testing

@testable import Daemon
@testable import Runtime

/// The runtime directory's `acks/` at start-up (`RuntimeDirectory`): real files in a temporary directory, no daemon.
@Suite("the runtime directory: acknowledgements left by a daemon before")
struct RuntimeDirectoryTests {
    /// Acknowledgements a daemon before this one wrote, or its clients gave up on: nobody waits for them any more, so
    /// the daemon removes them all once it holds the lock (`Daemon.init`), and keeps the directory.
    @Test func removingEveryAcknowledgementLeavesTheDirectoryEmptyAndInPlace() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.url.path
        let paths = DaemonPaths(
            environment: ["XDG_RUNTIME_DIR": root + "/run", "XDG_STATE_HOME": root + "/state", "HOME": root],
            settings: Settings())
        try FileManager.default.createDirectory(atPath: root + "/run", withIntermediateDirectories: true)
        try paths.control.prepare()
        var runtime = RuntimeDirectory(control: paths.control)
        try runtime.make(.acknowledgements)
        for index in 0..<50 {
            try "".write(toFile: paths.control.acknowledgements + "/stale\(index)", atomically: false, encoding: .utf8)
        }
        let stale = runtime.names(in: .acknowledgements)
        #expect(stale.count == 50)

        runtime.removeEveryFile(in: .acknowledgements)
        #expect(try FileManager.default.contentsOfDirectory(atPath: paths.control.acknowledgements).isEmpty)
        let left = runtime.names(in: .acknowledgements)
        #expect(left.isEmpty)
        // The directory stays, for the acknowledgements to come.
        try "".write(toFile: paths.control.acknowledgements + "/next", atomically: false, encoding: .utf8)
        let next = runtime.names(in: .acknowledgements)
        #expect(next == ["next"])
    }
}
