import Control
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("control client")
struct ControlClientTests {
    @Test func aFIFOWithNoReaderMeansNotRunning() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("control")
        #expect(mkfifo(path, 0o600) == 0)
        let error = try #require(throws: ControlClientError.self) {
            try ControlClient.send(ControlCommand(.reload(.all)), fifo: path)
        }
        #expect(error == .notRunning(path: path))
        #expect(error.description == "widgetd is not running (no reader on \(path))")
    }

    @Test func noFIFOMeansNotRunning() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("control")
        #expect(throws: ControlClientError.notRunning(path: path)) {
            try ControlClient.send(ControlCommand(.reload(.all)), fifo: path)
        }
    }

    @Test func withAReaderTheLineArrives() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let fifo = try ControlFIFO(path: directory.appending("control"))
        let command = ControlCommand(
            .intent(instance: "todos", intent: "toggle", parameters: [.init("title", "Buy \"oat\" milk")]),
            acknowledgement: ControlCommand.AckToken("t1"))
        try ControlClient.send(command, fifo: fifo.path)
        let results = try readControlLines(from: fifo) { !$0.isEmpty }
        #expect(results == [.line(#"intent todos toggle title="Buy \"oat\" milk" ack=t1"#)])
        if case .line(let line)? = results.first { #expect(try ControlCommand.parse(line) == command) }
    }

    @Test func aRegularFileIsNeverWrittenTo() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("control")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: ControlClientError.unsafe(.notAFIFO(path: path))) {
            try ControlClient.send(ControlCommand(.config), fifo: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
    }

    @Test func aFullFIFOFailsAtTheDeadline() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.appending("control")
        #expect(mkfifo(path, 0o600) == 0)
        // A reader that never reads, and a FIFO filled to the brim.
        let reader = try RawWriter(path, flags: O_RDONLY | O_NONBLOCK)
        let filler = try RawWriter(path, flags: O_WRONLY | O_NONBLOCK)
        let page = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        while page.withUnsafeBytes({ write(filler.descriptor, $0.baseAddress, $0.count) }) > 0 {}
        #expect(errno == EAGAIN)

        let started = ContinuousClock.now
        #expect(throws: ControlClientError.busy(path: path)) {
            try ControlClient.send(ControlCommand(.reload(.all)), fifo: path, timeout: .milliseconds(100))
        }
        #expect(ContinuousClock.now - started >= .milliseconds(100))
        _ = reader
    }

    @Test func aCommandTooLongForOneWriteIsRefused() throws {
        let command = ControlCommand(
            .intent(instance: "q", intent: "next", parameters: [.init("text", String(repeating: "y", count: 5000))]))
        #expect(throws: ControlClientError.lineTooLong(bytes: 5000 + "\nintent q next text=\n".utf8.count)) {
            try ControlClient.send(command, fifo: "/nonexistent/control")
        }
    }

    @Test func aCommandThatIsNoLineIsRefusedBeforeWriting() throws {
        let command = ControlCommand(.click(instance: "todos", button: 7, relativeX: nil, width: nil))
        #expect(throws: ControlClientError.invalid(ControlParseError("button must be 1-5"))) {
            try ControlClient.send(command, fifo: "/nonexistent/control")
        }
    }

    @Test func sendAndWaitReturnsOnceTheDaemonAcknowledges() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let paths = ControlPaths(directory: directory.appending("widgetd"))
        try paths.prepare()
        let fifo = try ControlFIFO(path: paths.fifo)

        // A stand-in daemon: read one request and acknowledge it, on its own thread.
        let daemon = DaemonStandIn(fifo: fifo, paths: paths)
        let serving = onAnotherThread { daemon.serveOne() }
        let token = try ControlClient.sendAndWait(
            ControlCommand(.reload(.kind("quotes"))), paths: paths, timeout: .seconds(10)
        ).token
        #expect(serving.wait(timeout: .now() + 10) == .success)
        #expect(daemon.received == ControlCommand(.reload(.kind("quotes")), acknowledgement: token))
        #expect(access(paths.acknowledgement(token), F_OK) != 0, "the acknowledgement file is cleaned up")
    }

    /// The outcome an acknowledgement file holds; an empty one and one of plain text are what daemons wrote before it.
    @Test(arguments: [
        ("", Acknowledgement.done(widgets: [])),
        ("done\n", .done(widgets: [])),
        ("done\nquote\nclock\n", .done(widgets: ["quote", "clock"])),
        ("quote: no\n", .failed("quote: no")),
        (
            "todos: right click: xdotool exited with status 1\n",
            .failed("todos: right click: xdotool exited with status 1")
        ),
    ])
    func anAcknowledgementReadsAsItsOutcome(_ text: String, _ outcome: Acknowledgement) {
        #expect(Acknowledgement(Array(text.utf8)) == outcome)
        if !text.isEmpty { #expect(outcome.bytes == Array(text.utf8)) }
    }

    @Test func sendAndWaitGivesUpWithoutAnAcknowledgement() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let paths = ControlPaths(directory: directory.appending("widgetd"))
        try paths.prepare()
        let fifo = try ControlFIFO(path: paths.fifo)
        let token = ControlCommand.AckToken("never")!
        let error = try #require(throws: ControlClientError.self) {
            try ControlClient.sendAndWait(
                ControlCommand(.reload(.all), acknowledgement: token), paths: paths, timeout: .milliseconds(150))
        }
        #expect(error == .noAcknowledgement(token: "never"))
        #expect(try readControlLines(from: fifo) { !$0.isEmpty } == [.line("reload all ack=never")])
    }

    @Test func sendAndWaitWithNoRuntimeDirectoryMeansNotRunning() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let paths = ControlPaths(directory: directory.appending("widgetd"))
        #expect(throws: ControlClientError.notRunning(path: paths.fifo)) {
            try ControlClient.sendAndWait(ControlCommand(.reload(.all)), paths: paths)
        }
    }
}

/// Reads one request from the FIFO, records it and acknowledges it, as the daemon will after writing.
final class DaemonStandIn: @unchecked Sendable {
    // @unchecked: `fifo` is used only on the serving thread; `received` is read after that thread is joined.
    private let fifo: ControlFIFO
    private let paths: ControlPaths
    private(set) var received: ControlCommand?

    init(fifo: ControlFIFO, paths: ControlPaths) {
        self.fifo = fifo
        self.paths = paths
    }

    func serveOne() {
        guard let results = try? readControlLines(from: fifo, until: { !$0.isEmpty }),
            case .line(let line)? = results.first,
            let command = try? ControlCommand.parse(line),
            let token = command.acknowledgement
        else { return }
        received = command
        try? paths.acknowledge(token)
    }
}
