import Synchronization

/// Serialises creating pipes and spawning processes across threads.
///
/// A pipe is made with `pipe()` and marked close-on-exec a moment later (`pipe2` is not importable); a
/// spawn on another thread in between would hand the child a copy without the mark, which it keeps
/// across exec, and a reader of that pipe would then wait for the wrong process to close it.
public enum SpawnGuard {
    private static let lock = Mutex<Void>(())

    public static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock { _ in try body() }
    }
}
