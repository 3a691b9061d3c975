/// The contents of a TZif file (RFC 8536): transitions, the local time types they switch to, and the POSIX
/// TZ footer for instants after the last transition.
///
/// Versions 2 to 4 carry the data twice, first with 32-bit then with 64-bit times; the 64-bit block is the one
/// read. A version 1 file has only the 32-bit block and no footer. Leap second records are skipped: the
/// system's zoneinfo (not `right/`) counts POSIX seconds, as the daemon does.
struct TZifFile: Sendable, Hashable {
    /// Instants (seconds since 1970) in increasing order.
    var transitions: [Int]
    /// For each transition, an index into `types`.
    var typeIndices: [Int]
    var types: [LocalTimeType]
    var footer: PosixTZRule?

    struct ParseError: Error, Sendable, CustomStringConvertible {
        var reason: String
        var description: String { "not a valid TZif file: \(reason)" }
    }

    init(transitions: [Int], typeIndices: [Int], types: [LocalTimeType], footer: PosixTZRule?) {
        self.transitions = transitions
        self.typeIndices = typeIndices
        self.types = types
        self.footer = footer
    }

    init(bytes: [UInt8]) throws(ParseError) {
        var reader = ByteReader(bytes: bytes)
        let first = try reader.header()
        if first.version == 0 {
            (transitions, typeIndices, types) = try reader.dataBlock(first, timeSize: 4)
            footer = nil
            return
        }
        reader.skip(first.dataBlockSize(timeSize: 4))
        let second = try reader.header()
        (transitions, typeIndices, types) = try reader.dataBlock(second, timeSize: 8)
        guard reader.next() == UInt8(ascii: "\n") else { throw ParseError(reason: "no footer") }
        var text: [UInt8] = []
        while let byte = reader.next(), byte != UInt8(ascii: "\n") { text.append(byte) }
        let rule = String(decoding: text, as: UTF8.self)
        // An empty footer means the zone's time after the last transition is unknown; the last type then holds.
        do {
            footer = rule.isEmpty ? nil : try PosixTZRule(parsing: rule)
        } catch {
            throw ParseError(reason: error.description)
        }
    }

    struct Header {
        var version: Int  // 0 for version 1, else the version number
        var isUTCCount, isStandardCount, leapCount, timeCount, typeCount, characterCount: Int

        func dataBlockSize(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
                + isStandardCount + isUTCCount
        }
    }

    private struct ByteReader {
        let bytes: [UInt8]
        var position = 0

        mutating func next() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func skip(_ count: Int) { position += count }

        mutating func integer(size: Int) throws(ParseError) -> Int {
            guard position + size <= bytes.count else { throw ParseError(reason: "truncated") }
            var value: UInt64 = 0
            for byte in bytes[position..<(position + size)] { value = value << 8 | UInt64(byte) }
            position += size
            // Sign-extend: TZif integers are two's complement, big-endian.
            let shift = UInt64(64 - size * 8)
            return Int(Int64(bitPattern: value << shift) >> Int64(shift))
        }

        mutating func header() throws(ParseError) -> Header {
            guard position + 44 <= bytes.count, Array(bytes[position..<(position + 4)]) == Array("TZif".utf8) else {
                throw ParseError(reason: "no TZif magic")
            }
            let versionByte = bytes[position + 4]
            let version: Int
            switch versionByte {
            case 0: version = 0
            case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - UInt8(ascii: "0"))
            default: throw ParseError(reason: "unknown version")
            }
            position += 20
            var counts: [Int] = []
            for _ in 0..<6 {
                let count = try integer(size: 4)
                guard count >= 0 else { throw ParseError(reason: "negative count") }
                counts.append(count)
            }
            guard counts[4] >= 1 else { throw ParseError(reason: "no local time types") }
            return Header(
                version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                timeCount: counts[3], typeCount: counts[4], characterCount: counts[5])
        }

        mutating func dataBlock(_ header: Header, timeSize: Int) throws(ParseError) -> ([Int], [Int], [LocalTimeType]) {
            guard position + header.dataBlockSize(timeSize: timeSize) <= bytes.count else {
                throw ParseError(reason: "truncated")
            }
            var transitions: [Int] = []
            for _ in 0..<header.timeCount {
                let transition = try integer(size: timeSize)
                // RFC 8536 requires ascending times; the lookups' binary searches rely on it.
                if let previous = transitions.last, transition <= previous {
                    throw ParseError(reason: "transition times out of order")
                }
                transitions.append(transition)
            }
            var indices: [Int] = []
            for _ in 0..<header.timeCount {
                let index = try integer(size: 1) & 0xFF
                guard index < header.typeCount else { throw ParseError(reason: "type index out of range") }
                indices.append(index)
            }
            var raw: [(offset: Int, isDST: Bool, nameIndex: Int)] = []
            for _ in 0..<header.typeCount {
                let offset = try integer(size: 4)
                let isDST = try integer(size: 1) != 0
                let nameIndex = try integer(size: 1) & 0xFF
                raw.append((offset, isDST, nameIndex))
            }
            let names = Array(bytes[position..<(position + header.characterCount)])
            position += header.characterCount
            let types = try raw.map { entry throws(ParseError) in
                guard entry.nameIndex < names.count else { throw ParseError(reason: "abbreviation out of range") }
                let end = names[entry.nameIndex...].firstIndex(of: 0) ?? names.count
                return LocalTimeType(
                    utcOffset: entry.offset, isDST: entry.isDST,
                    abbreviation: String(decoding: names[entry.nameIndex..<end], as: UTF8.self))
            }
            position += header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount
            return (transitions, indices, types)
        }
    }
}

// The lookups are the file's own methods, not `Zone`'s: a debug build copies the whole file (its three arrays and
// footer) for every `zone.file.…` it reads, and a cron search or a clock reads them thousands of times.
extension TZifFile {
    /// The type in force at `unixSeconds` (already clamped to `Zone.supportedInstants`).
    func localTimeType(at unixSeconds: Int) -> LocalTimeType {
        guard let last = transitions.last, unixSeconds >= transitions[0] else {
            if let rule = footer, transitions.isEmpty { return rule.localTimeType(at: unixSeconds) }
            return types[0]
        }
        if unixSeconds >= last {
            if let rule = footer { return rule.localTimeType(at: unixSeconds) }
            return types[typeIndices[transitions.count - 1]]
        }
        // The last transition at or before the instant.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= unixSeconds { low = middle } else { high = middle - 1 }
        }
        return types[typeIndices[low]]
    }

    /// The first table entry or footer change after `unixSeconds`, whether or not it changes anything.
    func nextChange(after unixSeconds: Int) -> Int? {
        if let last = transitions.last, unixSeconds < last {
            var low = 0
            var high = transitions.count - 1
            while low < high {
                let middle = (low + high) / 2
                if transitions[middle] > unixSeconds { high = middle } else { low = middle + 1 }
            }
            if transitions[low] > unixSeconds { return transitions[low] }
        }
        return footer?.nextChange(after: unixSeconds)
    }
}
