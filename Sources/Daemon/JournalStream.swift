import Glibc

/// Whether standard error is connected to systemd's journal, so log lines may carry priority prefixes.
///
/// systemd sets `JOURNAL_STREAM=DEVICE:INODE` for a service whose output goes to the journal. The variable is
/// inherited by everything the service starts, so it only counts when it names the descriptor we write to: a
/// `widgetd run` started from a shell inside a service, with stderr on a terminal, must not print `<3>` (systemd.exec(5),
/// "$JOURNAL_STREAM").
enum JournalStream {
    static func isStandardError(environment: [String: String]) -> Bool {
        matches(environment["JOURNAL_STREAM"], descriptor: STDERR_FILENO)
    }

    static func matches(_ value: String?, descriptor: Int32) -> Bool {
        guard let value, let colon = value.firstIndex(of: ":"),
            let device = UInt64(value[..<colon]), let inode = UInt64(value[value.index(after: colon)...])
        else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
