import Foundation
import Runtime
import System
import Testing

/// A client of a driven daemon's updates socket (`UpdatesMessage`), as a bar or a reader is: it says its request and
/// reads what the daemon sends.
final class UpdatesClient {
    let socket: PacketSocket
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)

    init(_ driven: DrivenDaemon, saying message: String) throws {
        socket = try PacketSocket.connect(to: driven.runtime + "/updates")
        #expect(Array(message.utf8).withUnsafeBytes { socket.send($0) } == .sent)
    }

    convenience init(_ driven: DrivenDaemon, following widgets: [String]) throws {
        try self.init(driven, saying: String(decoding: UpdatesMessage.follow(widgets: widgets).bytes, as: UTF8.self))
    }

    convenience init(_ driven: DrivenDaemon, bar: String) throws {
        try self.init(driven, saying: String(decoding: UpdatesMessage.subscribe(bar: bar).bytes, as: UTF8.self))
    }

    deinit { buffer.deallocate() }

    /// The messages waiting, as text; `closed` once the daemon closed the connection.
    func messages() -> (texts: [String], closed: Bool) {
        var texts: [String] = []
        while true {
            switch socket.receive(into: buffer) {
            case .message(let count):
                texts.append(String(decoding: UnsafeRawBufferPointer(rebasing: buffer[..<count]), as: UTF8.self))
            case .truncated: texts.append("(truncated)")
            case .nothing: return (texts, false)
            case .closed: return (texts, true)
            }
        }
    }

    /// Whether the daemon's end closes within `seconds`, the messages before it taken and dropped. The daemon closes
    /// its end at once, but a child another test of this process is starting holds a copy of every descriptor until
    /// its exec, and the end shows only once that copy is gone.
    func closes(within seconds: Double = 10) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while true {
            if messages().closed { return true }
            guard ContinuousClock.now < deadline else { return false }
            var entry = pollfd(fd: socket.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 100)
        }
    }

    /// Says `message` after the request, with `descriptor` passed along when given.
    func say(_ message: UpdatesMessage, passing descriptor: Int32? = nil) {
        let sent = message.bytes.withUnsafeBytes { bytes in
            descriptor.map { socket.send(bytes, passing: $0) } ?? socket.send(bytes)
        }
        #expect(sent == .sent)
    }
}
