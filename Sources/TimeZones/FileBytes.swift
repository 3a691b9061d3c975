import Basics
import Glibc

/// Reads a whole (small) file with plain system calls.
enum FileBytes {
    struct Failure: Error { var code: Int32 }

    /// The file's bytes, or the `errno` that stopped the read. Zoneinfo files are a few kB; anything past
    /// 1 MB is not one.
    static func read(path: String) -> Result<[UInt8], Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(Failure(code: errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                retryingInterrupted { Glibc.read(descriptor, bytes.baseAddress, bytes.count) }
            }
            if count < 0 { return .failure(Failure(code: errno)) }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count > 1 << 20 { return .failure(Failure(code: EFBIG)) }
        }
    }
}
