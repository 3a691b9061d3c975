/// Arithmetic on numbers the system gives (the kernel's /proc files, a file system's `statvfs`, which FUSE lets any
/// user's program answer): a product or sum past `UInt64.max` is `UInt64.max`, not an overflow trap.
func saturating(_ value: UInt64, times factor: UInt64) -> UInt64 {
    let product = value.multipliedReportingOverflow(by: factor)
    return product.overflow ? .max : product.partialValue
}

/// A measured quantity (a rate, a scaled size) as a count: NaN and negatives are 0, and anything past `UInt64.max` is
/// that, where `UInt64(_:)` would trap.
func saturating(_ value: Double) -> UInt64 {
    guard value > 0 else { return 0 }
    return value < 18_446_744_073_709_549_568 ? UInt64(value) : .max
}

func saturating(_ value: UInt64, plus other: UInt64) -> UInt64 {
    let sum = value.addingReportingOverflow(other)
    return sum.overflow ? .max : sum.partialValue
}
