import Glibc

/// The held files rewritten in one batch take their new names together, at the batch's end.
///
/// A bar or `show --follow` watching the directory with inotify is woken by a file's rename, and the kernel charges
/// the wake-up to the daemon. When each file was exchanged right after its write, ten per-second clocks woke a watcher
/// about nine times a second, 20 µs apart; written first and exchanged in one run of `renameat2` calls, about five
/// times, and a second's files change together on the bar (docs/PERFORMANCE.md, "Swap cost", seventh pass).
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

    /// The held spare in `slot` holds `name`'s next contents: its exchange waits for the end of the batch.
    func deferExchange(slot: Int32, name: String, now: Int32) {
        heldSpares.exchangeWaits(slot: slot, now: now)
        pendingExchanges.append((slot, name))
        if pendingExchanges.count >= Self.exchangesDeferredAtMost { settleExchanges() }
    }

    /// Makes the waiting exchanges, in the order written. A file whose exchange fails (a name deleted by someone, a
    /// pair given up meanwhile) is written again by name, as a first write would be.
    func settleExchanges() {
        guard !pendingExchanges.isEmpty else { return }
        let waiting = pendingExchanges
        pendingExchanges.removeAll(keepingCapacity: true)
        let now = HeldSpares.now()
        let directory: Int32
        do throws(OutputError) {
            directory = try checkedDescriptor()
        } catch {
            for (slot, name) in waiting {
                heldSpares.release(slot: slot, for: name)
                if lastWritten.removeValue(forKey: name) != nil { failedWrites.append((name, error)) }
            }
            return
        }
        for (slot, name) in waiting {
            if heldSpares.isExchangePending(slot: slot, for: name) {
                let outcome = try? AtomicFile.withSpareNames(for: name) { names throws(OutputError) in
                    try AtomicFile.exchangeHeldSpare(names, in: directory, at: directoryPrefix)
                }
                if outcome == .exchanged {
                    heldSpares.exchanged(slot: slot, now: now)
                    continue
                }
                heldSpares.release(slot: slot)
            }
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
