import Foundation

extension Process {
    /// Starts the process, then closes `files`: the test's own handles on the files given to it as standard input,
    /// output or error, which the child now holds copies of.
    ///
    /// Foundation keeps a `Process`, and the handles set on it, until the end of the run, so a handle left open is a
    /// descriptor the test process holds to its end. Each descriptor held costs every later start: Foundation lists
    /// `/proc/self/fd` and has the child close each one. And past about 1,300 of them, the listing fills its buffer,
    /// and Foundation's copy of each name reads past the last one (swift-corelibs-foundation's
    /// `findMaximumOpenFromProcSelfFD` copies all of `d_name`), which crashed the test process.
    public func run(thenClosing files: FileHandle...) throws {
        defer {
            for file in files { try? file.close() }
        }
        try run()
    }
}
