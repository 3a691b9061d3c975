import Foundation

@testable import Config
@testable import Kind
@testable import Providers

/// widgets.yaml from any bytes: YAML loading, merge keys, validation and rendering every diagnostic.
///
/// The store is never opened by validation; the path only has to exist as a string.
let registry = KindRegistry.standard(store: StoreAccess(path: "/nonexistent/widgetd-fuzz.sqlite"))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let result = ConfigLoader.load(bytes: bytes, file: "fuzz.yaml", registry: registry)
    let rendered = result.renderedDiagnostics()
    if result.configuration == nil, result.diagnostics.isEmpty {
        fatalError("no configuration and no diagnostic")
    }
    // Output stays bounded whatever the input: at most the reported errors, each with a capped excerpt.
    if rendered.utf8.count > 200_000 {
        fatalError("diagnostics of \(rendered.utf8.count) bytes")
    }
    return 0
}
