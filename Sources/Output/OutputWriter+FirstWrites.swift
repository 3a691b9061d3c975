import Basics
import Formats
import Glibc

/// First writes: a file this process has not written before, and many of them at once.
///
/// At a first start every widget's placeholder is a new file, and with many widgets making them is most of the start,
/// while the second core is idle (the providers start after the paint). `writeAll` makes the new files whose names are
/// free on two threads (docs/PERFORMANCE.md, "First writes and start-up"). Only system calls run on the second thread;
/// what the writer remembers is updated on the caller's, after both are done.
extension OutputWriter {
    /// One file of `writeAll`.
    public struct FileWrite: Sendable {
        public var instance: String
        public var format: OutputFormat
        public var bytes: [UInt8]

        public init(instance: String, format: OutputFormat, bytes: [UInt8]) {
            self.instance = instance
            self.format = format
            self.bytes = bytes
        }
    }

    /// Fewer new files than this are made on the caller's thread alone: starting a thread costs about as much as
    /// making a few files.
    static let filesWorthASecondThread = 128

    /// Writes every file as `write(instance:format:bytes:)` would, with the directory checked once; returns each file's
    /// error (nil: written, or unchanged). New files whose names are free are made first, on two threads when there
    /// are enough of them and two CPUs; the other files after, in order.
    public func writeAll(_ files: [FileWrite]) -> [OutputError?] {
        var errors = [OutputError?](repeating: nil, count: files.count)
        inOneBatch {
            var fresh: [(index: Int, name: String)] = []
            var freshNames: Set<String> = []
            var others: [(index: Int, name: String)] = []
            for index in files.indices {
                do throws(OutputError) {
                    let name = try fileName(files[index].instance, files[index].format.rawValue)
                    // A name given twice: its first write makes the file, the next ones replace it, after.
                    if newFilesWork, lastWritten[name] == nil, !namesFound.contains(name),
                        freshNames.insert(name).inserted
                    {
                        fresh.append((index, name))
                    } else {
                        others.append((index, name))
                    }
                } catch {
                    errors[index] = error
                }
            }
            if fresh.count < Self.filesWorthASecondThread || NewFilesInParallel.threads < 2 {
                others = fresh + others
                fresh = []
            } else {
                let directory: Int32
                do throws(OutputError) {
                    directory = try checkedDescriptor()
                } catch {
                    for (index, _) in fresh + others { errors[index] = error }
                    return
                }
                let outcomes = NewFilesInParallel.write(
                    fresh.map { (name: $0.name, bytes: files[$0.index].bytes) }, in: directory, at: directoryPrefix,
                    opening: openUnnamed)
                for (position, (index, name)) in fresh.enumerated() {
                    do throws(OutputError) {
                        switch try outcomes[position].get() {
                        case .linked: break
                        case .nameTaken:
                            try AtomicFile.write(files[index].bytes, named: name, in: directory, at: directoryPrefix)
                        case .unsupported:
                            newFilesWork = false
                            try AtomicFile.write(files[index].bytes, named: name, in: directory, at: directoryPrefix)
                        }
                        lastWritten[name] = Written(bytes: files[index].bytes, hasSpare: false, at: HeldSpares.now())
                    } catch {
                        errors[index] = error
                    }
                }
            }
            for (index, name) in others {
                do throws(OutputError) {
                    _ = try writeIfChanged(files[index].bytes, name: name)
                } catch {
                    errors[index] = error
                }
            }
        }
        return errors
    }

    /// Writes a file this process has not written before: as a new file linked in under its name where that name is
    /// free (every file at a first start; cheaper for the kernel), else by a temporary file renamed over it.
    func writeFirst(_ bytes: [UInt8], name: String, in directory: Int32) throws(OutputError) {
        let found = !namesFound.isEmpty && namesFound.remove(name) != nil
        if found, namesFound.isEmpty { namesFound = [] }  // gives its storage back
        if newFilesWork, !found {
            switch try AtomicFile.writeNew(
                bytes, named: name, in: directory, at: directoryPrefix, permissions: 0o600, opening: openUnnamed)
            {
            case .linked: return
            case .nameTaken: break  // someone made it since the directory was read: replaced the usual way
            case .unsupported: newFilesWork = false
            }
        }
        try AtomicFile.write(bytes, named: name, in: directory, at: directoryPrefix)
    }

}
