/// A count with its noun, for messages: "1 widget", "2 widgets", "0 errors". `plural` for nouns that do not take an
/// "s" ("1 entry", "2 entries").
public func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
