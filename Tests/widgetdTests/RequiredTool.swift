import Foundation
import Synchronization
import Testing

/// An outside program (or Python module) a test needs and cannot find: the test fails naming it and the Debian package
/// that has it, never passes quietly, and never fails on a symptom of its absence (an empty list, a status 127).
struct MissingTool: Error, CustomStringConvertible {
    var description: String

    init(description: String) {
        self.description = description
    }

    init(_ tool: String, package: String) {
        description =
            "this test needs \(tool), which is not installed: apt-get install \(package) "
            + "(the README lists every package the tests need; .ci/run installs them)"
    }
}

/// The path of the program `name` on the usual system paths; throws `MissingTool`, naming the Debian package, when it
/// is not installed.
func requireExecutable(_ name: String, package: String) throws -> String {
    for directory in ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin", "/sbin"] {
        let path = directory + "/" + name
        if access(path, X_OK) == 0 { return path }
    }
    throw MissingTool(name, package: package)
}

/// Throws `MissingTool` unless `/usr/bin/python3` can import `module`. Asked once per module and run: each music
/// test needs dbus and gi, and a python3 that imports gi costs more CPU than many a test.
func requirePythonModule(_ module: String, package: String) throws {
    let python = try requireExecutable("python3", package: "python3")
    let importable = importablePythonModules.withLock { known in
        if let answer = known[module] { return answer }
        let answer = (try? runProgram(python, ["-c", "import " + module]))?.status == 0
        known[module] = answer
        return answer
    }
    guard importable else { throw MissingTool("the Python module \(module)", package: package) }
}

private let importablePythonModules = Mutex<[String: Bool]>([:])
