import Foundation
import Testing

/// A network namespace of one test's own, held by an `unshare -n` process until dropped: its links and addresses are
/// changed with `ip` through `nsenter`, and programs (the daemon, i3status) are run in it the same way. Nothing a test
/// does in it reaches the machine's own network.
final class NetworkNamespace {
    let holder = Process()
    private let end: ProcessEnd
    let nsenter: String
    let ipPath: String

    /// Makes the namespace; throws `MissingTool` without unshare, nsenter or ip.
    init() throws {
        let unshare = try requireExecutable("unshare", package: "util-linux")
        nsenter = try requireExecutable("nsenter", package: "util-linux")
        ipPath = try requireExecutable("ip", package: "iproute2")
        end = ProcessEnd(of: holder)
        holder.executableURL = URL(fileURLWithPath: unshare)
        // Held open by a reader of standard input that never ends: no timer, and it ends when the test kills it.
        holder.arguments = ["-n", "--", "/bin/cat"]
        holder.standardInput = Pipe()
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
    }

    deinit {
        // SIGKILL: a child of the test runner starts with SIGTERM blocked, and cat does not unblock it.
        if holder.isRunning {
            kill(holder.processIdentifier, SIGKILL)
            end.waitBlocking()
        }
    }

    var pid: Int32 { holder.processIdentifier }

    /// The prefix that runs a program in the namespace.
    var launcher: [String] { [nsenter, "-t", String(pid), "-n", "--"] }

    /// Waits until the holder has left this process's namespace: before that, `nsenter` would enter the machine's.
    func waitUntilMade() async -> Bool {
        let own = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")
        return await waitFor("the namespace of unshare -n") {
            guard let theirs = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/net")
            else { return false }
            return theirs != own
        }
    }

    /// Runs `ip ARGUMENTS` in the namespace, on a thread of its own (`awaitingPrograms`) rather than one of the pool's;
    /// throws with its error output when it fails.
    @discardableResult
    func ip(_ arguments: String) async throws -> ProcessResult {
        let command = ipCommand(arguments)
        return try await awaitingPrograms { try Self.run(command, "ip " + arguments) }
    }

    /// `ip`, blocking the calling thread: for a caller on a thread of its own already.
    @discardableResult
    func ipBlocking(_ arguments: String) throws -> ProcessResult {
        try Self.run(ipCommand(arguments), "ip " + arguments)
    }

    private func ipCommand(_ arguments: String) -> [String] {
        [nsenter, "-t", String(pid), "-n", "--", ipPath] + arguments.split(separator: " ").map(String.init)
    }

    private static func run(_ command: [String], _ typed: String) throws -> ProcessResult {
        let result = try runProgram(command[0], Array(command.dropFirst()))
        guard result.status == 0 else { throw NamespaceCommandFailed(command: typed, output: result.stderr) }
        return result
    }
}

struct NamespaceCommandFailed: Error, CustomStringConvertible {
    var command: String
    var output: String
    var description: String { "\(command) failed: \(output)" }
}
