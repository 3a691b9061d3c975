@testable import Control

/// One FIFO line: parsing must throw or give a command whose own line parses back to the same command.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let command = try? ControlCommand.parse(line) else { return 0 }
    guard let again = try? ControlCommand.parse(command.line), again == command else {
        fatalError("'\(command.line)' does not parse back to \(command)")
    }
    return 0
}
