/// Files of the output directory that are not an instance's format: written whole, as records are.
extension OutputWriter {
    /// Writes `bytes` to `<name>.<suffix>` as a new file renamed into place, as a record is, so a reader watching the
    /// file sees the old one's link count drop (`IN_ATTRIB`): a `bars:` entry's line (the daemon's `BarLine` file).
    public func writeWhole(_ bytes: [UInt8], name: String, suffix: String) throws(OutputError) {
        try AtomicFile.write(bytes, named: try fileName(name, suffix), in: try checkedDescriptor(), at: directoryPrefix)
    }

    /// Removes `<name>.<suffix>`; a file already gone is fine.
    public func remove(name: String, suffix: String) throws(OutputError) {
        try remove(instance: name, suffixes: [suffix])
    }
}
