import Config
import Control
import Formats
import FoundationEssentials
import Glibc
import Output
import Runtime
import Timelines

/// The one writer of the daemon's state files (`StateFile`): `daemon.json`, the status files, the acknowledgements and
/// the entries kept across restarts — everything the daemon writes besides the bar files and records.
///
/// Every write goes through one path, `write(_:_:now:)`: atomically (`AtomicFile`: a temporary file in the same
/// directory, then `rename`), so a reader never sees half a file; a failure is logged at the file's level; and a file
/// that says how things are now (`StateFile.isRetried`) is written again with its latest contents on a backing-off
/// deadline (`OutputRetry`'s delays, 0.5 s doubling to 30 s), logged once until it works, so `list` and the CLI catch
/// up once space comes back without waiting for the next change. The files in the runtime directory are written and
/// removed by descriptor (`RuntimeDirectory`), never through a link put where a directory was.
struct StateFiles {
    let paths: DaemonPaths
    /// The runtime directory, `acks/` and `status/`, held open.
    private(set) var runtime: RuntimeDirectory
    /// Where entries are kept across restarts; nil when that directory could not be made.
    let memory: EntryMemory?
    let log: Log
    /// Acknowledgement files written, removed when nobody took them.
    private(set) var acknowledgementFiles = AcknowledgementFiles()
    /// A hash of what the status file of each widget whose next reload follows its policy was last written with, to
    /// leave one that would not change. Only those widgets' (the others' status changes at every reload anyway), and
    /// a hash, not the bytes: a daemon of 10,000 widgets keeps almost nothing here.
    private var statusWritten: [String: Int] = [:]
    /// Deletions in `status/` are watched (`DirectoryGuard.watchStatus`), and every one forgets `statusWritten`: a
    /// status file someone removed is then written again without each unchanged status looking for its file first.
    var statusDeletionsWatched = false
    /// Retried files whose last write failed (logged once), with the contents to write again.
    private var pending: [StateFile: [UInt8]] = [:]
    private var delay = OutputRetry.firstDelay
    /// When to write `pending` again; nil while nothing waits.
    private(set) var retryDue: Date?

    init(paths: DaemonPaths, runtime: RuntimeDirectory? = nil, memory: EntryMemory?, log: Log) {
        self.paths = paths
        self.runtime = runtime ?? RuntimeDirectory(control: paths.control)
        self.memory = memory
        self.log = log
    }

    /// The earliest instant this writer has something to do: a retry, or an acknowledgement file to remove.
    var nextDeadline: Date? {
        guard let retryDue else { return acknowledgementFiles.nextRemoval }
        return min(retryDue, acknowledgementFiles.nextRemoval ?? retryDue)
    }

    /// Whether `file` is waiting to be written again.
    func isFailing(_ file: StateFile) -> Bool { pending[file] != nil }

    // MARK: - The files

    /// Writes `daemon.json`; a failure is logged and retried, the daemon goes on (the CLI then falls back on the
    /// config's paths).
    mutating func write(_ state: DaemonState, now: Date) {
        write(.daemon, state.encoded(), now: now)
    }

    /// Removes `daemon.json`, and the running config beside it, if it still names this process (not a newer
    /// daemon's).
    mutating func removeDaemonState() {
        forget(.daemon)
        forget(.runningConfig)
        guard let bytes = runtime.contents(of: DaemonState.fileName, in: nil),
            (try? JSONDecoder().decode(DaemonState.self, from: Data(bytes)))?.pid == getpid()
        else { return }
        runtime.remove(RunningConfig.fileName, from: nil)
        runtime.remove(DaemonState.fileName, from: nil)
    }

    /// Writes the config the daemon runs (`RunningConfig`); a failure is logged and retried. Meanwhile an earlier
    /// daemon's copy must not be taken for this one's: it goes, and the CLI falls back on the file.
    mutating func writeRunningConfig(_ text: String, now: Date) {
        if !write(.runningConfig, Array(text.utf8), now: now) { runtime.remove(RunningConfig.fileName, from: nil) }
    }

    /// Writes the instance's status file, unless it already holds the same: a sampled widget's status stays the same
    /// from one sample to the next (its next reload is in its record: `InstanceStatusRecord.reloadsWithPolicy`). A
    /// file someone deleted is written again: at the next write after its deletion was seen, or, while `status/` is not
    /// watched, at the next write that looks for it.
    mutating func write(_ status: InstanceStatus<WidgetInstance>, of name: String, now: Date) {
        let record = InstanceStatusRecord(status)
        guard record.reloadsWithPolicy else {
            if !statusWritten.isEmpty { statusWritten[name] = nil }
            write(.status(name), record.encoded(), now: now)
            return
        }
        // The record's hash, not its bytes': an unchanged status (each sample of a sampled widget) is not encoded.
        let hash = record.hashValue
        if statusWritten[name] == hash,
            statusDeletionsWatched || runtime.exists(InstanceStatusRecord.fileName(for: name), in: .status)
        {
            return
        }
        statusWritten[name] = write(.status(name), record.encoded(), now: now) ? hash : nil
    }

    /// A status file was deleted (or events were lost): every status is written at its next write.
    mutating func statusFilesWent() {
        statusWritten = [:]
    }

    /// The widget is gone: its status file goes, and is not written again.
    mutating func removeStatus(of name: String) {
        statusWritten[name] = nil
        forget(.status(name))
        runtime.remove(InstanceStatusRecord.fileName(for: name), from: .status)
    }

    /// The names in `status/`: the widgets this daemon, or one before it, wrote a status for.
    mutating func statusFileNames() -> [String] {
        runtime.names(in: .status)
    }

    /// A name in the runtime directory changed, or the directory went: each is opened again, with its checks, when
    /// next written.
    mutating func releaseRuntimeDirectory() {
        statusWritten = [:]
        runtime.release()
    }

    /// Makes `directory` again where it went (the runtime's repair); whether it was made now.
    mutating func make(_ directory: RuntimeDirectory.Entry) throws(ControlPathError) -> Bool {
        try runtime.make(directory)
    }

    /// Tells a waiting CLI its request is done, with the widgets it wrote (`Acknowledgement`), or with `failure`, why
    /// it did not work (the CLI then exits 1). The file goes `AcknowledgementFiles.lifetime` later if nobody took it.
    mutating func acknowledge(_ token: ControlCommand.AckToken, failure: String?, widgets: [String] = [], now: Date) {
        let outcome = failure.map(Acknowledgement.failed) ?? .done(widgets: widgets)
        guard write(.acknowledgement(token), outcome.bytes, now: now) else { return }
        removeAcknowledgements(acknowledgementFiles.wrote(token, now: now))
    }

    /// Keeps `record` (cut to its entry at `now`) for the next run; with `unlessKept`, not when the file already holds
    /// the same.
    ///
    /// A stop keeps every widget, and most kept files already hold what they would be given (written when the timeline
    /// arrived): reading one back is cheaper than replacing it, and leaves nothing to lose. A timeline that has just
    /// arrived is written without reading the file first: it almost always differs (a reload shows something new),
    /// and the read was four more system calls in every reload.
    mutating func keep(_ record: InstanceRecord, now: Date, unlessKept: Bool) {
        guard memory != nil else { return }
        let file = StateFile.kept(record.instance)
        do {
            let bytes = try record.kept(at: now).encoded()
            if unlessKept, FileManager.default.contents(atPath: file.path(in: paths))?.elementsEqual(bytes) == true {
                return
            }
            write(file, bytes, now: now)
        } catch {
            log(file.failureLevel, file.failure(error, path: file.path(in: paths)))
        }
    }

    /// The widget is gone: its kept entry goes too.
    mutating func forgetKept(_ name: String) {
        guard memory != nil else { return }
        unlink(StateFile.kept(name).path(in: paths))
    }

    /// Does what is due at `now`: retries, and removing acknowledgement files nobody took.
    mutating func doHousekeeping(now: Date) {
        if let due = retryDue, due <= now { retry(now: now) }
        removeAcknowledgements(acknowledgementFiles.expired(now: now))
    }

    // MARK: - The one write path

    /// Writes `bytes` to `file` atomically. A failure is logged (a retried file's only until a write of it works
    /// again) and, for a retried file, its contents are kept to be written again.
    /// - Returns: whether the file is written.
    @discardableResult
    private mutating func write(_ file: StateFile, _ bytes: [UInt8], now: Date) -> Bool {
        let path = file.path(in: paths)
        do {
            if let (entry, name) = file.inRuntimeDirectory {
                let directory = try runtime.descriptor(of: entry)
                try AtomicFile.write(
                    bytes, named: name, in: directory, at: runtime.path(of: entry) + "/", permissions: 0o600)
            } else {
                try AtomicFile.write(bytes, to: path, permissions: 0o600)
            }
        } catch {
            guard file.isRetried else {
                log(file.failureLevel, file.failure(error, path: path))
                return false
            }
            if pending.updateValue(bytes, forKey: file) == nil {
                log(file.failureLevel, file.failure(error, path: path))
            }
            if retryDue == nil { retryDue = now.addingTimeInterval(delay) }
            return false
        }
        forget(file)
        return true
    }

    /// `file` is written (or not wanted any more); with nothing left to retry, the back-off starts over.
    private mutating func forget(_ file: StateFile) {
        guard pending.removeValue(forKey: file) != nil, pending.isEmpty else { return }
        retryDue = nil
        delay = OutputRetry.firstDelay
    }

    /// Writes every pending file again; the next retry is set a longer delay ahead, in case they fail again.
    private mutating func retry(now: Date) {
        delay = min(delay * 2, OutputRetry.longestDelay)
        retryDue = now.addingTimeInterval(delay)
        for (file, bytes) in pending { write(file, bytes, now: now) }
        if pending.isEmpty { log(.info, "the state files are written again") }
    }

    /// Removes acknowledgement files nobody took in time (`AcknowledgementFiles`).
    private mutating func removeAcknowledgements(_ tokens: [ControlCommand.AckToken]) {
        for token in tokens { runtime.remove(token.rawValue, from: .acknowledgements) }
    }
}
