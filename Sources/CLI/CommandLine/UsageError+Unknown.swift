import Text

extension UsageError {
    /// `Unknown WHAT 'NAME'`, with the closest of `names` as a suggestion, or else all of them after `listing`.
    static func unknown(
        _ what: String, _ name: String, among names: [String], listing: String, command: CommandName
    ) -> UsageError {
        let list = "\(listing): \(names.joined(separator: ", "))"
        return UsageError(
            "Unknown \(what) '\(name)'\(Suggestion.didYouMean(name, in: names, then: list)).", command: command)
    }
}
