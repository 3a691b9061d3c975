/// Why a provider call failed, as the widget's tooltip and `widgetd list` show it.
public struct ProviderFailure: Error, Sendable, Hashable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
