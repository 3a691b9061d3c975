/// A string's UTF-8 bytes as one buffer, without copying them out.
extension String {
    /// Calls `body` with the string's UTF-8 bytes. A native string lends its storage and a small one (up to 15 bytes)
    /// a copy on the stack; only a bridged string is copied into an array. Loops on the swap path read bytes through
    /// this instead of `utf8`'s iterator, which costs tens of instructions per byte of a small string (a name, a
    /// clock's text; docs/PERFORMANCE.md, "Swap cost").
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }
}
