/// Arithmetic on numbers the system gives (the kernel's /proc files, a file system's `statvfs`, which FUSE lets any
/// user's program answer): a product or sum past `UInt64.max` is `UInt64.max`, not an overflow trap.
func saturating(_ value: UInt64, times factor: UInt64) -> UInt64 {
    let product = value.multipliedReportingOverflow(by: factor)
    return product.overflow ? .max : product.partialValue
}

func saturating(_ value: UInt64, plus other: UInt64) -> UInt64 {
    let sum = value.addingReportingOverflow(other)
    return sum.overflow ? .max : sum.partialValue
}
