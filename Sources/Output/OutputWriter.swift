import Basics
import Formats
import FoundationEssentials
import Glibc
import System

/// Owns the output directory and writes each instance's files there, skipping writes that would change nothing.
///
/// Not `Sendable`: the daemon's one loop owns it (the design's single writer), and the memory of what was last
/// written is only right if nothing else writes these files.
public final class OutputWriter {
    /// The directory, as given.
    public let directory: String

    /// The directory as opened (`O_DIRECTORY | O_NOFOLLOW`) and checked, with its identity; nil while it is refused.
    /// Every file is written relative to it, so a directory swapped for a symbolic link is never written through.
    private var held: (descriptor: Int32, device: dev_t, inode: ino_t)?
    /// Why the directory is refused, for the writes' errors, while `held` is nil.
    private var refusal: OutputError?

    /// What was last written to each file name. Bytes, not `String`s: Swift compares strings by canonical
    /// equivalence, so a text switching between composed and decomposed "é" would compare equal and not be written.
    var lastWritten: [String: Written] = [:]

    /// The view (`InstanceRecord.steadyView`) of each record last written with `skipsSameView`, by file name.
    var recordViews: [String: Int] = [:]

    struct Written {
        var bytes: [UInt8]
        /// The file has a spare (`AtomicFile.rewriteSpare`): the version before the current one, written by this
        /// process with the file's permissions, under a name only this process uses.
        var hasSpare: Bool
        /// Where `heldSpares` keeps the file and its spare open, if it does; a slot given to another file since is
        /// told apart by its name.
        var slot: Int32 = -1
        /// When it was written (`HeldSpares.now()`, seconds): a file is held open only once it is rewritten often.
        var at: Int32
    }

    /// The files rewritten most often, held open with their spares between writes (`HeldSpares`).
    var heldSpares = HeldSpares()

    /// How many files are held open with their spares, for tests.
    var heldFileCount: Int { heldSpares.count }

    /// False once leases or `RENAME_EXCHANGE` turned out not to work here: every write is then a new file renamed
    /// over the old one.
    var sparesWork = true

    /// False once a file could not be made unnamed and linked in here (`AtomicFile.writeNew`): every first write is
    /// then a temporary file renamed, until the directory is made again.
    var newFilesWork = true

    /// The names the directory held when it was opened and that have not been written since: a first write of one
    /// replaces that file, so it goes straight to a temporary file renamed, instead of making an unnamed file
    /// whose link would fail (a restart finds every file of the last run). Emptied as they are written.
    var namesFound: Set<String> = []

    /// Opens a new unnamed file in the directory (`UnnamedFileCalls.open`); tests stand in a filesystem without
    /// `O_TMPFILE` here.
    var openUnnamed: (_ directory: Int32, _ permissions: mode_t) -> Int32 = UnnamedFileCalls.open

    /// Inside `inOneBatch`: how many batches are open, and the directory's check once made for them (the descriptor, or
    /// why it is refused). Not a `Result`: copying one goes through generic value witnesses at every write, on pages of
    /// code outside the swap path's (docs/PERFORMANCE.md, "Swap cost").
    private var batchDepth = 0
    private var batchDescriptor: Int32?
    private var batchRefusal: OutputError?

    /// Set by a caller that watches the directory and its parent with inotify and calls `directoryMayHaveChanged()` on
    /// any event that could mean the path names another directory now (the daemon). A successful check of the path then
    /// holds for `vouchedFor` seconds of writes, instead of an `lstat` of the whole path before every batch, which with
    /// cold caches is a large part of a reload's time above the kernel's floor. The time limit covers what no watch
    /// sees, an ancestor further up moved away.
    public var isWatched = false {
        didSet { vouchedUntil = nil }
    }
    /// Until when (`HeldSpares.now()`) the last check of the path holds; nil: check before the next write.
    private var vouchedUntil: Int32?
    static let vouchedFor: Int32 = 10

    /// Something changed in the directory's parent or the directory itself went: the path is checked again before the
    /// next write.
    public func directoryMayHaveChanged() {
        vouchedUntil = nil
    }

    /// Opens `directory`, creating it and its missing parents with mode 0700.
    ///
    /// Refuses a directory that is a symbolic link or belongs to another user: the bars do what these files say (a
    /// polybar action tag runs a command on click), so whoever controls the directory controls the bars. Mode 0700
    /// keeps other users from reading what the widgets show or planting files there.
    public init(directory: String) throws(OutputError) {
        self.directory = directory
        directoryPrefix = directory.hasSuffix("/") ? directory : directory + "/"
        checkedPath = Self.trimmingSlashes(directory)
        SpareFileCalls.ignoreLeaseBreaks()
        try open()
        takeStock()
    }

    deinit {
        heldSpares.releaseAll()
        if let held { close(held.descriptor) }
    }

    /// Forgets what was last written to the file `name` (someone else deleted it), so its next write is not skipped.
    public func forget(fileNamed name: String) {
        recordViews[name] = nil
        if let written = lastWritten.removeValue(forKey: name) { heldSpares.release(slot: written.slot, for: name) }
    }

    /// Creates the directory again, as `init` does, and forgets every file: someone deleted the directory.
    ///
    /// Until it succeeds every write fails with the reason: the daemon does not write through a link put where its
    /// directory was, nor into a directory of someone else's.
    public func recreate() throws(OutputError) {
        heldSpares.releaseAll()
        lastWritten = [:]
        recordViews = [:]
        namesFound = []
        newFilesWork = true
        try open()
    }

    /// Whether the path still names the directory the files go to: not deleted, moved, or replaced by another
    /// directory or a symbolic link since it was opened (an `lstat` now, whatever the watches vouched for).
    public var isCurrent: Bool {
        (try? checkDirectory()) != nil
    }

    /// Runs `body` with the output directory checked once for all its writes instead of before each one: a second
    /// boundary with 1,000 clocks due then costs one `lstat`, not 1,000. A directory replaced during the batch is found
    /// by the next batch; that window is the one every write already has between its check and its rename.
    public func inOneBatch<Result>(_ body: () throws -> Result) rethrows -> Result {
        batchDepth += 1
        defer {
            batchDepth -= 1
            if batchDepth == 0 { forgetBatchCheck() }
        }
        return try body()
    }

    /// The path without trailing slashes, which would make `lstat` and `O_NOFOLLOW` follow a symbolic link. Made once:
    /// it is checked before every write, and trimming it each time (`count` walks the whole path) would be on every
    /// reload's way to its file.
    private let checkedPath: String

    private static func trimmingSlashes(_ path: String) -> String {
        var checked = Substring(path)
        while checked.count > 1, checked.hasSuffix("/") { checked = checked.dropLast() }
        return String(checked)
    }

    /// Creates the directory if needed, checks it, and holds it open; on failure holds nothing and keeps the reason.
    private func open() throws(OutputError) {
        forgetBatchCheck()
        vouchedUntil = nil
        if let held { close(held.descriptor) }
        held = nil
        do throws(OutputError) {
            try Self.makeDirectory(directory)
            let target = checkedPath
            var status = stat()
            try Syscall.retrying("lstat", path: target) { lstat(target, &status) }
            try Self.check(status, of: target)
            let descriptor = try Syscall.retrying("open", path: target) {
                Glibc.open(target, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            // What was opened, in case the path changed between the check and the open.
            var opened = stat()
            do throws(OutputError) {
                try Syscall.retrying("fstat", path: target) { fstat(descriptor, &opened) }
                try Self.check(opened, of: target)
            } catch {
                close(descriptor)
                throw error
            }
            held = (descriptor, opened.st_dev, opened.st_ino)
            refusal = nil
        } catch {
            refusal = error
            throw error
        }
    }

    /// Refuses anything but a directory of this user's.
    private static func check(_ status: stat, of target: String) throws(OutputError) {
        if status.st_mode & S_IFMT == S_IFLNK {
            throw OutputError(refusing: target, because: "is a symbolic link; give the directory it points to")
        }
        if status.st_mode & S_IFMT != S_IFDIR {
            throw OutputError(refusing: target, because: "is not a directory")
        }
        if status.st_uid != geteuid() {
            throw OutputError(refusing: target, because: "belongs to uid \(status.st_uid), not to this user")
        }
    }

    /// The held directory's descriptor, after checking that the path still names it.
    func checkedDescriptor() throws(OutputError) -> Int32 {
        if let batchDescriptor { return batchDescriptor }
        if let batchRefusal { throw batchRefusal }
        if let vouchedUntil, let held, HeldSpares.now() < vouchedUntil { return held.descriptor }
        do throws(OutputError) {
            let descriptor = try checkDirectory()
            if isWatched { vouchedUntil = HeldSpares.now() + Self.vouchedFor }
            if batchDepth > 0 { batchDescriptor = descriptor }
            return descriptor
        } catch {
            if batchDepth > 0 { batchRefusal = error }
            throw error
        }
    }

    private func forgetBatchCheck() {
        batchDescriptor = nil
        batchRefusal = nil
    }

    /// Checks that the path still names the directory held open (an `lstat`), and gives its descriptor.
    private func checkDirectory() throws(OutputError) -> Int32 {
        guard let held else {
            throw refusal ?? OutputError(refusing: checkedPath, because: "is not open")
        }
        let target = checkedPath
        var status = stat()
        guard lstat(target, &status) == 0 else {
            throw OutputError(refusing: target, because: "was deleted or moved; not writing until it is back")
        }
        if status.st_mode & S_IFMT == S_IFLNK {
            throw OutputError(refusing: target, because: "was replaced by a symbolic link; not writing through it")
        }
        guard status.st_dev == held.device, status.st_ino == held.inode else {
            throw OutputError(refusing: target, because: "was replaced; not writing until it is checked again")
        }
        return held.descriptor
    }

    /// Writes `contents` to `<directory>/<instance>.<format>` unless that file was last written with the same bytes.
    ///
    /// Returns whether the file was written. An unchanged entry is skipped so that bars watching the file with inotify
    /// do not redraw, and tmpfs is not churned, on every timeline swap.
    @discardableResult
    public func write(instance: String, format: OutputFormat, contents: String) throws(OutputError) -> Bool {
        try writeIfChanged(Array(contents.utf8), name: try fileName(instance, format.rawValue))
    }

    /// `write(instance:format:contents:)` with the contents as bytes (`Renderer.renderedBytes`), as the daemon writes
    /// at every swap.
    @discardableResult
    public func write(instance: String, format: OutputFormat, bytes: [UInt8]) throws(OutputError) -> Bool {
        try writeIfChanged(bytes, name: try fileName(instance, format.rawValue))
    }

    /// Deletes every file of `instance`: one per format and its record. Files already gone are fine.
    ///
    /// Tries every file before throwing the first failure, so one stuck file does not keep the others around.
    public func remove(instance: String) throws(OutputError) {
        try remove(instance: instance, suffixes: OutputFormat.allCases.map(\.rawValue) + ["json"])
    }

    /// Removes `instance`'s bar files of `formats` (and their spares): formats its config no longer lists.
    public func remove(instance: String, formats: [OutputFormat]) throws(OutputError) {
        try remove(instance: instance, suffixes: formats.map(\.rawValue))
    }

    func remove(instance: String, suffixes: [String]) throws(OutputError) {
        var firstFailure: OutputError?
        let directory = try checkedDescriptor()
        for suffix in suffixes {
            let name = try fileName(instance, suffix)
            forget(fileNamed: name)
            // Gone or not, a spare is nobody's business any more.
            unlinkat(directory, AtomicFile.spareName(for: name), 0)
            do throws(OutputError) {
                try Syscall.retrying("unlink", path: path(of: name)) { unlinkat(directory, name, 0) }
            } catch {
                // A file already gone is what was asked for.
                if error.errno != ENOENT { firstFailure = firstFailure ?? error }
            }
        }
        if let firstFailure {
            throw firstFailure
        }
    }

    func writeIfChanged(_ bytes: [UInt8], name: String) throws(OutputError) -> Bool {
        // Found, the bytes are compared through the index.
        let known = lastWritten.index(forKey: name)
        if let index = known, lastWritten.values[index].bytes == bytes { return false }
        let directory = try checkedDescriptor()
        if let known, sparesWork {
            var written = lastWritten.values[known]
            let now = HeldSpares.now()
            let often = written.hasSpare && now - written.at <= HeldSpares.rewrittenWithin
            try AtomicFile.withSpareNames(for: name) { names throws(OutputError) in
                try replace(names, with: bytes, in: directory, written: &written, often: often, now: now)
            }
            written.bytes = bytes
            written.at = now
            lastWritten.values[known] = written
            return true
        }
        // A first write: the file there may not be one of this process's, so it does not become a spare.
        try writeFirst(bytes, name: name, in: directory)
        lastWritten[name] = Written(bytes: bytes, hasSpare: false, at: HeldSpares.now())
        return true
    }

    /// Reads the directory once when it is opened: notes the names there (`namesFound`), and deletes the spares and
    /// temporary files (`.<name>.<pid>`, `.<name>.<pid>.<n>`) that processes no longer running left: a daemon killed
    /// before its stop leaves one spare per file it wrote more than once. Another process's are left alone while it
    /// runs; nobody reads these names, so deleting one never changes what a bar sees.
    private func takeStock() {
        guard let held else { return }
        let copy = dup(held.descriptor)
        guard copy >= 0, let listing = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return
        }
        defer { closedir(listing) }
        var leftovers: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if let owner = Self.writingProcess(of: name) {
                if owner != getpid(), !Self.isRunning(owner) { leftovers.append(name) }
            } else if name != ".", name != ".." {
                namesFound.insert(name)
            }
        }
        for name in leftovers { unlinkat(held.descriptor, name, 0) }
    }

    /// Deletes every spare (at the daemon's stop): the files bars read stay, the hidden spares beside them go.
    public func removeSpares() {
        heldSpares.releaseAll()
        guard let directory = try? checkedDescriptor() else { return }
        for index in lastWritten.indices where lastWritten.values[index].hasSpare {
            unlinkat(directory, AtomicFile.spareName(for: lastWritten.keys[index]), 0)
            lastWritten.values[index].hasSpare = false
        }
    }

    /// A file's path in errors (`OutputWriter+FileName` too).
    func path(of name: String) -> String {
        directoryPrefix + name
    }

    /// The directory with one trailing slash, for file paths in errors; made once, not at every write.
    let directoryPrefix: String

    /// `mkdir -p` with mode 0700 for every directory it creates (`PrivateDirectory`); existing is fine for a parent,
    /// and for the directory itself `init` checks what is there.
    private static func makeDirectory(_ path: String) throws(OutputError) {
        do {
            try PrivateDirectory.make(path)
        } catch {
            throw OutputError(call: "mkdir", path: error.path, errno: error.errno)
        }
    }
}
