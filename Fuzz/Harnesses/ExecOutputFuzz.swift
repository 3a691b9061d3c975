import Foundation

@testable import Providers

/// What an exec command printed, with either exit status: a timeline or an ExecError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let status: Int32 = [0, 33, 1][Int(data[0]) % 3]
    let output = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let result = CommandResult(output: output, truncated: false, exitStatus: status, errorOutput: "")
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    _ = try? ExecOutput.timeline(from: result, now: now, defaultPolicy: .atEnd)
    return 0
}
