import Glibc

/// The held files rewritten in one batch take their new names together, at the batch's end.
///
/// A bar or `show --follow` watching the directory with inotify is woken by a file's rename, and the kernel charges
/// the wake-up to the daemon. Exchanged right after its write, each file of a second's batch would wake a watcher on
/// its own, microseconds apart; written first and exchanged in one run of `renameat2` calls, the files wake it about
/// half as often, and a second's files change together on the bar (docs/PERFORMANCE.md, "Swap cost").
///
/// Nothing a reader sees changes: each spare is whole and leased off before the exchanges start, and a reader still
/// finds the old file or the new one under the name. At most `exchangesDeferredAtMost` wait, so the first file of a
/// large batch is not held back by the writes of all the others.
extension OutputWriter {
    /// How many exchanges wait at most before they are made.
    static let exchangesDeferredAtMost = 16

    /// The instances whose new contents were written in a batch but did not take their names (a name deleted
    /// meanwhile and the file then not writable by name either), with why; emptied. Their next write is not skipped.
    public func takeFailedWrites() -> [(instance: String, error: OutputError)] {
        defer { failedWrites = [] }
        // A file is `<instance>.<format>` (`fileName`).
        return failedWrites.map { (String($0.name[..<($0.name.lastIndex(of: ".") ?? $0.name.endIndex)]), $0.error) }
    }

    /// In a batch, rewrites the spare of a held file (`HeldSpares`) under its lease and leaves the exchange for the
    /// batch's end; false when the file is not held or the lease is refused (a reader has the spare open, or leases
    /// stopped working): the caller then writes as outside a batch, which sorts either out.
    func rewriteHeldLater(_ bytes: [UInt8], written: Written, name: String, now: Int32) throws(OutputError) -> Bool {
        guard isBatching, written.hasSpare, let pair = heldSpares.pairToWrite(in: written.slot, for: name) else {
            return false
        }
        do throws(OutputError) {
            let refused = try AtomicFile.rewriteLeased(
                pair.spare, size: pair.spareSize, with: bytes,
                shownAs: directoryPrefix + AtomicFile.spareName(for: name))
            if refused != nil { return false }
        } catch {
            heldSpares.release(slot: written.slot)
            throw error
        }
        if heldSpares.deferExchange(slot: written.slot, size: bytes.count, now: now) >= Self.exchangesDeferredAtMost {
            settleExchanges()
        }
        return true
    }

    /// Makes the waiting exchanges, in the order written. A file whose new contents took no name (a name deleted by
    /// someone, a pair given up meanwhile) is written again by name, as a first write would be.
    func settleExchanges() {
        guard heldSpares.hasPendingExchanges else { return }
        let directory: Int32
        do throws(OutputError) {
            directory = try checkedDescriptor()
        } catch {
            // Not written: each file's next write is not skipped, and the caller hears why.
            for name in heldSpares.dropPending() where lastWritten.removeValue(forKey: name) != nil {
                failedWrites.append((name, error))
            }
            return
        }
        for name in heldSpares.exchangePending(in: directory, now: HeldSpares.now()) {
            writeAgainByName(name, in: directory)
        }
    }

    /// Writes `name`'s last contents as a new file renamed over it, with no spare: the way out of an exchange that
    /// could not be made. Forgotten meanwhile (`forget`), it is left alone.
    private func writeAgainByName(_ name: String, in directory: Int32) {
        guard let written = lastWritten.removeValue(forKey: name) else { return }
        // Whatever the spare holds, nobody reads it: it goes, and the next write makes a new one.
        if written.hasSpare { unlinkat(directory, AtomicFile.spareName(for: name), 0) }
        do throws(OutputError) {
            try AtomicFile.write(written.bytes, named: name, in: directory, at: directoryPrefix)
            lastWritten[name] = Written(bytes: written.bytes, hasSpare: false, at: written.at)
        } catch {
            failedWrites.append((name, error))
        }
    }
}
