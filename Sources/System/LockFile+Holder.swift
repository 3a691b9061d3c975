import FoundationEssentials
import Glibc

extension LockFile {
    /// The pid of the process holding the `flock` on the file at `path`, or nil when none does (or no file exists).
    ///
    /// Read from `/proc/locks` rather than by trying the lock: a probe that takes the lock even for a moment could make
    /// a daemon starting at that instant believe another one runs. A stale lock file left by a killed daemon (the
    /// kernel drops the lock, the file stays) therefore reads as "not running", as it should.
    public static func holder(of path: String) -> Int32? {
        var status = stat()
        guard stat(path, &status) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return nil }
        // glibc's major() and minor() are macros Swift does not import; this is their encoding.
        let dev = UInt64(status.st_dev)
        let major = ((dev >> 8) & 0xFFF) | ((dev >> 32) & ~0xFFF)
        let minor = (dev & 0xFF) | ((dev >> 12) & ~0xFF)
        let device = "\(String(major, radix: 16)):\(String(minor, radix: 16))"
        // "1: FLOCK  ADVISORY  WRITE 4242 00:1a:12345 0 EOF"; a waiter's line has "->" after the number.
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", fields[2] != "->" else { continue }
            let place = fields[5].split(separator: ":")
            guard place.count == 3, UInt64(place[2]) == UInt64(status.st_ino),
                Self.sameDevice(place[0], place[1], device)
            else { continue }
            return Int32(fields[4])
        }
        return nil
    }

    /// `/proc/locks` prints major and minor in hex with at least two digits ("00:1a").
    private static func sameDevice(_ major: Substring, _ minor: Substring, _ expected: String) -> Bool {
        guard let major = UInt32(major, radix: 16), let minor = UInt32(minor, radix: 16) else { return false }
        return "\(String(major, radix: 16)):\(String(minor, radix: 16))" == expected
    }
}
