import Foundation
import Output
import TestSupport

/// `clock.plain` written three times by a writer in a fresh directory: from the third write on, the file and its
/// spare are held open (`HeldSpares`). For the tests of what becomes of a held file.
struct HeldClockFile {
    let directory: TestDirectory
    let writer: OutputWriter
    /// The file's path, and its spare's (`.clock.plain.<pid>`).
    let target: String
    let spare: String

    init() throws {
        directory = try TestDirectory()
        writer = try OutputWriter(directory: directory.path)
        target = directory.appending("clock.plain")
        spare = directory.appending(".clock.plain.\(getpid())")
        for second in 0..<3 { try writer.write(instance: "clock", format: .plain, contents: "12:00:0\(second)\n") }
    }
}
