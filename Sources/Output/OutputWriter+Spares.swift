import Glibc

/// Rewriting a file this process wrote before through its spare (`AtomicFile+Spare`): through the descriptors held open
/// for it (`HeldSpares`), or by name.
extension OutputWriter {
    /// Replaces a file this process wrote before through its spare: through the descriptors held open for it when
    /// there are (`HeldSpares`), else by name; a file rewritten `often` (its spare rewritten soon after the last
    /// write) is held open after, when there is room. A file written once or twice, or rarely, is not held: the
    /// descriptors are for the files that change every second or minute. `now`: `HeldSpares.now()`, read once per write.
    func replace(
        _ names: AtomicFile.SpareNames, with bytes: [UInt8], in directory: Int32, written: inout Written, often: Bool,
        now: Int32
    ) throws(OutputError) {
        if written.hasSpare, let pair = heldSpares.pairToWrite(in: written.slot, for: names.name) {
            let outcome: AtomicFile.SpareRewrite
            do throws(OutputError) {
                outcome = try AtomicFile.rewriteHeldSpare(
                    bytes, descriptor: pair.spare, size: pair.spareSize, names: names, in: directory,
                    at: directoryPrefix)
            } catch {
                heldSpares.release(slot: written.slot)
                throw error
            }
            if outcome == .exchanged {
                heldSpares.spareRewritten(slot: written.slot, size: bytes.count)
                heldSpares.exchanged(slot: written.slot, now: now)
                return
            }
            // A reader holds the spare, someone deleted a name, or leases stopped working: the pair is dropped and the
            // write goes by name, which sorts each case out.
            heldSpares.release(slot: written.slot)
        }
        written.hasSpare = try replaceByName(names, with: bytes, in: directory, hasSpare: written.hasSpare)
        if often, written.hasSpare, let slot = heldSpares.hold(names, in: directory, now: now) { written.slot = slot }
    }

    /// Replaces a file this process wrote before through its spare (`AtomicFile+Spare`), by name: rewrites the spare
    /// when nobody has it open, else makes a new one; returns whether the file has a spare after.
    func replaceByName(
        _ names: AtomicFile.SpareNames, with bytes: [UInt8], in directory: Int32, hasSpare: Bool
    ) throws(OutputError) -> Bool {
        let name = names.name
        if hasSpare {
            let outcome = try AtomicFile.rewriteSpare(bytes, names: names, in: directory, at: directoryPrefix)
            switch outcome {
            case .exchanged, .renamed, .renamedWithoutExchange:
                return keepsSpare(after: outcome)
            case .missing:
                break
            case .busy:
                // A reader still has that version open: it keeps it, under no name, and a new spare is made.
                unlinkat(directory, AtomicFile.spareName(for: name), 0)
            case .noLease:
                sparesWork = false
                heldSpares.releaseAll()
                unlinkat(directory, AtomicFile.spareName(for: name), 0)
                try AtomicFile.write(bytes, named: name, in: directory, at: directoryPrefix)
                return false
            }
        }
        return keepsSpare(
            after: try AtomicFile.writeThroughNewSpare(bytes, named: name, in: directory, at: directoryPrefix))
    }

    /// Some held file changed length at its last write and its spare waits to be emptied (`emptyRetiredSpares`).
    public var hasSparesToEmpty: Bool { heldSpares.hasSparesToEmpty }

    /// Empties the spares of the held files that changed length at their last write, so that their next rewrite
    /// neither truncates nor allocates (`HeldSpares.emptyRetiredSpares`). For a caller with nothing else to do: the
    /// daemon, before it sleeps. Without it, the next rewrite truncates as it always did.
    public func emptyRetiredSpares() {
        heldSpares.emptyRetiredSpares()
    }

    /// Whether the file has a spare after a write that went through; an exchange that did not work here turns spares
    /// off.
    func keepsSpare(after outcome: AtomicFile.SpareRewrite) -> Bool {
        if outcome == .renamedWithoutExchange {
            sparesWork = false
            heldSpares.releaseAll()
        }
        return outcome == .exchanged
    }
}
