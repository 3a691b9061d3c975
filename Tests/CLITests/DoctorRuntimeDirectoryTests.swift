import Control
import Foundation
import Glibc
import TestSupport
import Testing

@testable import CLI

/// `doctor`'s word on the runtime directory agrees with what `run` then does: a file where the directory goes, or no
/// `$XDG_RUNTIME_DIR` to make it in, made `run` fail after `doctor` said ok.
@Suite("doctor: the runtime directory")
struct DoctorRuntimeDirectoryTests {
    @Test func aMissingDirectoryIsOkWhenTheDaemonCanMakeIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let finding = DoctorCommand.runtimeDirectory(ControlPaths(directory: directory.url.path + "/widgetd"))
        #expect(finding.verdict == .ok)
        #expect(finding.what.hasSuffix("does not exist yet (the daemon makes it)"))
    }

    @Test func aMissingRuntimeDirectoryAboveItIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let finding = DoctorCommand.runtimeDirectory(
            ControlPaths(directory: directory.url.path + "/nonexistent/widgetd"))
        #expect(finding.verdict == .error)
        #expect(finding.what.contains("does not exist or is not a directory"), "\(finding.what)")
        #expect(finding.fix?.contains("XDG_RUNTIME_DIR") == true)
    }

    @Test func aFileWhereTheDirectoryGoesIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("widgetd", "")
        #expect(chmod(path, 0o700) == 0)
        let finding = DoctorCommand.runtimeDirectory(ControlPaths(directory: path))
        #expect(finding.verdict == .error)
        #expect(finding.what == "\(path) is not a directory")
        #expect(finding.fix == "rm \(path) and start the daemon again")
    }
}
