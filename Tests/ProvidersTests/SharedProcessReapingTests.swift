import Foundation
import Glibc
import Testing

@testable import Providers

/// A daemon in a process it does not own (a test's, beside other tests) reaps no child it did not start: the exit
/// status of another's child stays for the one that waits for it, after every sweep the daemon makes.
@Suite("Reaping in a shared process")
struct SharedProcessReapingTests {
    @Test func anotherChildsExitStatusIsLeftToWhoeverWaitsForIt() throws {
        var pid: pid_t = 0
        var arguments: [UnsafeMutablePointer<CChar>?] =
            ["/bin/sh", "-c", "exit 7"].map { (text: String) in strdup(text) } + [nil]
        defer { arguments.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/sh", nil, nil, &arguments, environ) == 0)
        // Exited and not reaped: a zombie child of this process, as a test's `Process` is before its handler runs.
        var info = siginfo_t()
        #expect(waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0)

        // What the daemon runs after a click (SIGCHLD), a timeout and a widget removed.
        ProcessHygiene.reapOrphans()
        ProcessHygiene.endEscaped(owner: "removed", within: 0)

        var status: Int32 = 0
        #expect(waitpid(pid, &status, WNOHANG) == pid, "the child's exit was taken by the daemon's sweep")
        #expect((status >> 8) & 0xff == 7)
    }
}
