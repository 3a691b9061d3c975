/// A kind that reads /proc and /sys through `files`: the system's own, or a tree a test made.
public protocol ReadsSystemFiles {
    init(files: SystemFiles)
}

extension ReadsSystemFiles {
    /// The kind reading the system's own files.
    public init() { self.init(files: .standard) }
}

extension CPUKind: ReadsSystemFiles {}
extension DiskKind: ReadsSystemFiles {}
extension LoadKind: ReadsSystemFiles {}
extension MemoryKind: ReadsSystemFiles {}
extension TemperatureKind: ReadsSystemFiles {}
extension UptimeKind: ReadsSystemFiles {}
