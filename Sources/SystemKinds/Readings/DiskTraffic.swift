/// What a block device has read and written since boot, from its `stat` file in /sys/dev/block (the sectors there are
/// always 512 bytes, whatever the device's own sector size), with the time since boot they were read at: two such
/// readings make a rate.
public struct DiskTraffic: Sendable, Hashable {
    public var bytesRead: UInt64
    public var bytesWritten: UInt64
    /// /proc/uptime when this was read: a clock that never steps, and one a test's tree can hold.
    public var uptime: Double

    public init(bytesRead: UInt64, bytesWritten: UInt64, uptime: Double) {
        self.bytesRead = bytesRead
        self.bytesWritten = bytesWritten
        self.uptime = uptime
    }

    /// Reads a block device's `stat` line: sectors read is its 3rd field, sectors written its 7th.
    public init?(blockStat text: String, uptime: Double) {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 7, let read = UInt64(fields[2]), let written = UInt64(fields[6]) else { return nil }
        self.init(bytesRead: read &* 512, bytesWritten: written &* 512, uptime: uptime)
    }

    /// Bytes a second read and written from `earlier` to this; without `earlier` (the widget's first sample), since
    /// boot, as the CPU's first sample is. Nil when no time passed or a counter went back (the device was replaced).
    public func rates(since earlier: DiskTraffic?) -> (read: Double, write: Double)? {
        let earlier = earlier ?? DiskTraffic(bytesRead: 0, bytesWritten: 0, uptime: 0)
        let elapsed = uptime - earlier.uptime
        guard elapsed > 0, bytesRead >= earlier.bytesRead, bytesWritten >= earlier.bytesWritten else { return nil }
        return (Double(bytesRead - earlier.bytesRead) / elapsed, Double(bytesWritten - earlier.bytesWritten) / elapsed)
    }

    /// The device (`major:minor`) of the mount that holds `path`, from /proc/self/mountinfo: the longest mount point
    /// that is `path` or a directory above it. Nil for a mount with no block device behind it (major 0: tmpfs,
    /// overlay, NFS, and btrfs, whose subvolumes have devices of their own).
    public static func device(holding path: String, mountinfo text: String) -> String? {
        var best: (point: String, device: String)?
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 5 else { continue }
            let point = unescaped(String(fields[4]))
            let isAbove =
                point == "/" || path == point || (path.hasPrefix(point) && path.dropFirst(point.count).first == "/")
            // A later mount over the same point hides the earlier one, so the last of equal length wins.
            if isAbove, point.count >= (best?.point.count ?? 0) { best = (point, String(fields[2])) }
        }
        guard let device = best?.device, !device.hasPrefix("0:") else { return nil }
        return device
    }

    /// mountinfo writes a space, tab, newline and backslash in a path as an octal escape (`\040`).
    static func unescaped(_ field: String) -> String {
        guard field.contains("\\") else { return field }
        var bytes: [UInt8] = []
        let source = Array(field.utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "\\"), index + 3 < source.count,
                let code = UInt8(String(decoding: source[index + 1...index + 3], as: UTF8.self), radix: 8)
            {
                bytes.append(code)
                index += 4
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
