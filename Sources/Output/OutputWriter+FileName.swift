/// The file names the writer makes from instance names: one place checks that none can leave the output directory or
/// hide a file there.
extension OutputWriter {
    /// `<instance>.<suffix>`, after checking that the instance name cannot leave the directory or hide a file.
    ///
    /// The configuration already limits names to letters, digits, `_` and `-`; this guards the file system against any
    /// other caller.
    func fileName(_ instance: String, _ suffix: String) throws(OutputError) -> String {
        // One pass over the name's bytes, checking and copying them together into a buffer on the stack: two `+`, two
        // `contains` and a `hasPrefix` were nearly a tenth of a swap's instructions (docs/PERFORMANCE.md, "Swap cost",
        // fourth pass). A name of up to 15 bytes is then a small string, made with no allocation.
        let length = instance.utf8.count + 1 + suffix.utf8.count
        let name = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer -> String? in
            var count = 0
            for byte in instance.utf8 {
                guard byte != UInt8(ascii: "/"), byte != 0, count > 0 || byte != UInt8(ascii: ".") else { return nil }
                buffer[count] = byte
                count += 1
            }
            guard count > 0 else { return nil }
            buffer[count] = UInt8(ascii: ".")
            count += 1
            for byte in suffix.utf8 {
                buffer[count] = byte
                count += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
        guard let name else {
            throw OutputError(refusing: path(of: instance), because: "is not a valid instance name for a file")
        }
        return name
    }
}
