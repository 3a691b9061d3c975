/// Where a plugin host sends its events, boxed in a class for the host's `Mutex`.
///
/// A closure kept in a `Mutex` directly is wrapped in two more reabstraction thunks by every `withLock` that reads it
/// (the inout access converts it out of the generic storage's form and back), so each message a plugin sent made the
/// next call one level deeper, until the host's thread ran out of stack. A class reference is stored as it is.
final class PluginListener: Sendable {
    let handle: @Sendable (PluginEvent) -> Void

    init(_ handle: @escaping @Sendable (PluginEvent) -> Void) {
        self.handle = handle
    }
}
