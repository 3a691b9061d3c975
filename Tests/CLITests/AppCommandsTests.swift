import Store
import Testing

@testable import CLI

/// What the app commands print of the store's text when a reference is ambiguous.
@Suite("app commands: errors that quote the store")
struct AppCommandsTests {
    /// The candidates are listed one per line with their messages, which are the store's text: escaped as every other
    /// record the app prints, so a message cannot clear the terminal or add a line of its own.
    @Test func anAmbiguousReferenceListsItsCandidatesEscaped() {
        let error = StoreError.ambiguous(
            "abcd", [.init(id: "abcd0001", label: "one\u{1B}[2J\ncleared"), .init(id: "abcd0002", label: "two")])
        let shown = "\(AppCommands.shown(error))"
        #expect(shown.split(separator: "\n").count == 3, "\(shown)")
        #expect(shown.hasSuffix("  abcd0001 one\\u{1B}[2J\\ncleared\n  abcd0002 two"), "\(shown)")
    }
}
