/// Where a pushed kind reads its value, and the socket that tells it the value changed.
public struct UeventSources: Sendable {
    public let files: SystemFiles
    public let listener: UeventListener
}
