import Foundation
import TestSupport

/// A system root for the daemon (`WIDGETD_SYSTEM_ROOT`) holding only /proc/loadavg, so that `load` widgets sample
/// what the test writes there.
struct FakeLoadAverage {
    let tree: TemporaryDirectory

    /// The root, with a one-minute load of `load`.
    init(_ load: String = "0.25") throws {
        tree = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: tree.url.appendingPathComponent("proc"), withIntermediateDirectories: true)
        try set(load)
    }

    /// The daemon's environment for this root.
    var environment: [String: String] { ["WIDGETD_SYSTEM_ROOT": tree.url.path] }

    /// The one-minute load the next sample reads.
    func set(_ load: String) throws {
        _ = try tree.write("proc/loadavg", "\(load) 0.50 0.75 1/100 4242\n")
    }

    func remove() { tree.remove() }
}
