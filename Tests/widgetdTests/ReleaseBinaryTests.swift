import Foundation
import Testing

/// Issue 15: the release binary is stripped and carries no ICU.
@Suite("the release binary", .startsFirst)
struct ReleaseBinaryTests {
    @Test func itIsLinkedStrippedAndWithoutICU() async throws {
        let binary = try await PackagingTests.builtReleaseBinary()
        let file = try runProgram(try requireExecutable("file", package: "file"), [binary])
        #expect(file.stdout.contains("stripped") && !file.stdout.contains("not stripped"), "\(file.stdout)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: binary))
        // ICU's data is linked in as `icudt76l-…` entries (34 MB); FoundationInternationalization brings it along.
        #expect(bytes.range(of: Data("icudt".utf8)) == nil, "ICU's data is linked into \(binary)")
    }
}
