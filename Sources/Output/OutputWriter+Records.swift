import Formats

/// Each instance's record, `<instance>.json`: what it shows over time, for `widgetd show`, `list` and `bar --widgets`.
extension OutputWriter {
    /// Writes the instance's record to `<directory>/<instance>.json`.
    ///
    /// Records are not remembered: they change only when a timeline arrives or a reload fails, so remembering their
    /// bytes (a clock's hour of entries) would cost memory to save almost no writes. Except with `remembersView`, for
    /// a widget sampled on a rule: its record is one entry, and a sample that read the same value as the one before
    /// changes only its dates (`InstanceRecord.steadyView`), so a hash of what it shows is kept, and the daemon asks
    /// `holdsSameView(as:)` before writing it again.
    public func writeRecord(_ record: InstanceRecord, remembersView: Bool = false) throws(OutputError) {
        let name = try fileName(record.instance, "json")
        let bytes: [UInt8]
        do {
            bytes = try record.encoded()
        } catch {
            throw OutputError(refusing: path(of: name), because: "cannot encode the record: \(error)")
        }
        try AtomicFile.write(bytes, named: name, in: try checkedDescriptor(), at: directoryPrefix)
        if remembersView, let view = record.steadyView {
            recordViews[name] = view
        } else if !recordViews.isEmpty {
            recordViews[name] = nil
        }
    }

    /// Whether the record file holds what `record` shows, but for its dates: written last with `remembersView` and the
    /// same `steadyView`, and not deleted since (the daemon's watch of the directory then calls `forget(fileNamed:)`).
    public func holdsSameView(as record: InstanceRecord) -> Bool {
        guard !recordViews.isEmpty, let view = record.steadyView else { return false }
        return recordViews[record.instance + ".json"] == view
    }
}
