import Control
import FoundationEssentials

/// The acknowledgement files the daemon wrote, so none outlives its use.
///
/// A waiting CLI removes its file as soon as it has read it, within milliseconds. A file nobody removes belongs to a
/// client that gave up (`--wait` timed out) or to a line written with `ack=` by hand; without this, one such file
/// stayed per request (thousands after a flood). The daemon removes each file `lifetime` after writing it, and the
/// oldest at once while more than `limit` are outstanding, so the directory stays bounded.
struct AcknowledgementFiles {
    static let lifetime: TimeInterval = 10
    static let limit = 1024

    private var written: [(token: ControlCommand.AckToken, at: Date)] = []
    /// The first entry of `written` still outstanding.
    private var head = 0

    /// When the oldest file is due for removal; nil when none is outstanding.
    var nextRemoval: Date? { head < written.count ? written[head].at.addingTimeInterval(Self.lifetime) : nil }

    var count: Int { written.count - head }

    /// A file was written for `token`.
    /// - Returns: tokens whose files should go now, because too many are outstanding.
    mutating func wrote(_ token: ControlCommand.AckToken, now: Date) -> [ControlCommand.AckToken] {
        written.append((token, now))
        var overflow: [ControlCommand.AckToken] = []
        while count > Self.limit { overflow.append(pop()) }
        return overflow
    }

    /// Tokens whose files have lived their `lifetime` by `now`.
    mutating func expired(now: Date) -> [ControlCommand.AckToken] {
        var expired: [ControlCommand.AckToken] = []
        while let due = nextRemoval, due <= now { expired.append(pop()) }
        return expired
    }

    private mutating func pop() -> ControlCommand.AckToken {
        let token = written[head].token
        head += 1
        if head == written.count {
            written = []
            head = 0
        } else if head >= 256, head * 2 >= written.count {
            written.removeFirst(head)
            head = 0
        }
        return token
    }
}
