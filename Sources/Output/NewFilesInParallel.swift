import Basics
import Glibc

/// New files made on two threads (`AtomicFile.writeNew`), for `OutputWriter.writeAll`: the caller's thread makes the
/// first half, a second thread the rest, and the outcomes come back in the files' order. With one CPU, or when no
/// thread can be started, the caller makes them all.
enum NewFilesInParallel {
    /// The threads worth using: two where there are two CPUs or more (the daemon's loop is one thread; its provider
    /// threads are idle while it paints).
    static let threads = sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 ? 2 : 1

    typealias Outcome = Result<AtomicFile.NewFileWrite, OutputError>

    static func write(
        _ files: [(name: String, bytes: [UInt8])], in directory: Int32, at directoryPath: String,
        opening open: @escaping (_ directory: Int32, _ permissions: mode_t) -> Int32
    ) -> [Outcome] {
        let work = Work(files: files, directory: directory, directoryPath: directoryPath, open: open)
        let half = files.count / 2
        do {
            try DetachedThread.start(name: "widgetd-paint") {
                work.make(half..<files.count)
                work.finished()
            }
        } catch {
            work.make(half..<files.count)
            work.finished()
        }
        work.make(0..<half)
        return work.outcomesOnceFinished()
    }

    /// The files and their outcomes, shared by the two threads: each writes only its own range of `outcomes`, and the
    /// caller reads them all only after the other thread said it finished, under the condition's lock.
    private final class Work: @unchecked Sendable {
        let files: [(name: String, bytes: [UInt8])]
        let directory: Int32
        let directoryPath: String
        let open: (_ directory: Int32, _ permissions: mode_t) -> Int32
        private let outcomes: UnsafeMutableBufferPointer<Outcome>
        private let condition = Condition()
        private var done = false

        init(
            files: [(name: String, bytes: [UInt8])], directory: Int32, directoryPath: String,
            open: @escaping (_ directory: Int32, _ permissions: mode_t) -> Int32
        ) {
            self.files = files
            self.directory = directory
            self.directoryPath = directoryPath
            self.open = open
            outcomes = .allocate(capacity: files.count)
            outcomes.initialize(repeating: .success(.unsupported))
        }

        deinit {
            outcomes.deinitialize()
            outcomes.deallocate()
        }

        func make(_ range: Range<Int>) {
            for index in range {
                do throws(OutputError) {
                    outcomes[index] = .success(
                        try AtomicFile.writeNew(
                            files[index].bytes, named: files[index].name, in: directory, at: directoryPath,
                            permissions: 0o600, opening: open))
                } catch {
                    outcomes[index] = .failure(error)
                }
            }
        }

        func finished() {
            condition.lock()
            done = true
            condition.signal()
            condition.unlock()
        }

        func outcomesOnceFinished() -> [Outcome] {
            condition.lock()
            while !done { condition.wait() }
            condition.unlock()
            return Array(outcomes)
        }
    }
}
