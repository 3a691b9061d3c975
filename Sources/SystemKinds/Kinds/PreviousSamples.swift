import Synchronization

/// The last sample of each instance, by instance name, for kinds whose value is a difference between two samples
/// (CPU usage). Kinds are values the daemon calls from several threads, so the table sits behind a lock.
final class PreviousSamples<Sample: Sendable>: Sendable {
    private let samples = Mutex<[String: Sample]>([:])

    /// Keeps `sample` for `instance` and answers the one it replaces.
    func exchange(_ sample: Sample, for instance: String) -> Sample? {
        samples.withLock { $0.updateValue(sample, forKey: instance) }
    }

    func peek(_ instance: String) -> Sample? {
        samples.withLock { $0[instance] }
    }
}
