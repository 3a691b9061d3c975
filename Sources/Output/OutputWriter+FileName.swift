import Basics

/// The file names the writer makes from instance names: one place checks that none can leave the output directory or
/// hide a file there.
extension OutputWriter {
    /// `<instance>.<suffix>`, after checking that the instance name cannot leave the directory or hide a file.
    ///
    /// The configuration already limits names to letters, digits, `_` and `-`; this guards the file system against any
    /// other caller.
    func fileName(_ instance: String, _ suffix: String) throws(OutputError) -> String {
        // One pass over the name's bytes, checking and copying them together into a buffer on the stack: two `+`, two
        // `contains` and a `hasPrefix` would each walk the name at every swap (docs/PERFORMANCE.md, "Swap cost"). A
        // name of up to 15 bytes is then a small string, made with no allocation. The bytes are read through
        // `withUTF8Bytes`, not `utf8`'s iterator, and each closure keeps its own count: one that changed a captured
        // `var` would make every access to it a checked one, `swift_beginAccess`.
        let length = instance.utf8.count + 1 + suffix.utf8.count
        let name = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer -> String? in
            let instanceLength = instance.withUTF8Bytes { bytes -> Int? in
                for (index, byte) in bytes.enumerated() {
                    guard byte != UInt8(ascii: "/"), byte != 0, index > 0 || byte != UInt8(ascii: ".") else {
                        return nil
                    }
                    buffer[index] = byte
                }
                return bytes.isEmpty ? nil : bytes.count
            }
            guard let instanceLength else { return nil }
            buffer[instanceLength] = UInt8(ascii: ".")
            suffix.withUTF8Bytes { bytes in
                for (index, byte) in bytes.enumerated() { buffer[instanceLength + 1 + index] = byte }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<length]), as: UTF8.self)
        }
        guard let name else {
            throw OutputError(refusing: path(of: instance), because: "is not a valid instance name for a file")
        }
        return name
    }
}
