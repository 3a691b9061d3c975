/// The bytes an interface has received and sent since it appeared, from /proc/net/dev.
///
/// /proc/net/dev, not /sys/class/net/IF/statistics: /proc/net follows the network namespace of the process that
/// reads it, while /sys shows the namespace it was mounted in, so a daemon started in another namespace (a container,
/// `unshare -n`) would read another machine's counters, or none.
public struct InterfaceCounters: Sendable, Hashable {
    public var received: UInt64
    public var sent: UInt64

    public init(received: UInt64, sent: UInt64) {
        self.received = received
        self.sent = sent
    }

    /// The counters of `interface` in the text of /proc/net/dev (two header lines, then `name: rx_bytes rx_packets …
    /// tx_bytes …`, the ninth number being the first sent one); nil when it is not listed or its line is cut.
    public init?(procNetDev text: String, interface: String) {
        for line in text.split(separator: "\n").dropFirst(2) {
            guard let colon = line.firstIndex(of: ":"),
                line[..<colon].trimmingCharacters(in: " ") == interface
            else { continue }
            let numbers = line[line.index(after: colon)...].split(separator: " ").map { UInt64($0) }
            guard numbers.count >= 9, let received = numbers[0], let sent = numbers[8] else { return nil }
            self.init(received: received, sent: sent)
            return
        }
        return nil
    }

    /// Bytes per second received and sent from `earlier` to these counters over `seconds`; a counter that went back
    /// (the interface was made again) counts from zero.
    public func rates(since earlier: InterfaceCounters, over seconds: Double) -> (down: UInt64, up: UInt64) {
        guard seconds > 0 else { return (0, 0) }
        func rate(_ now: UInt64, _ before: UInt64) -> UInt64 {
            saturating((Double(now >= before ? now - before : now) / seconds).rounded())
        }
        return (rate(received, earlier.received), rate(sent, earlier.sent))
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> Substring {
        var text = self
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return text
    }
}
