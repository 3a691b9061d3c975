import Glibc

/// A C library loaded with `dlopen` at its first use rather than linked, with the table of its functions the code
/// calls (a struct of function pointers that a C shim fills with `dlsym`).
///
/// Linked, every library and those under it are mapped and relocated at every start of every command; loaded on
/// demand, only a process that uses it pays for it, and a machine without it runs everything else. SQLite
/// (`SQLiteLibrary`), libpulse (the sound kind) and libdbus (the music kind) come in this way.
public enum SharedLibrary {
    /// Loads `fileName` and fills a `Functions` table from it with `resolve` (the shim's function: it returns nil when
    /// every function was found, else the name of the first one missing); the caller closes the handle, if ever.
    ///
    /// - Parameter fileName: the library's soname, which the loader finds as it would a linked library's.
    public static func open<Functions>(
        _ fileName: String,
        resolving resolve: (UnsafeMutableRawPointer, UnsafeMutablePointer<Functions>) -> UnsafePointer<CChar>?
    ) throws(SharedLibraryError) -> (handle: UnsafeMutableRawPointer, functions: Functions) {
        // RTLD_LOCAL: its symbols stay out of the global scope, so nothing else binds to them.
        guard let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw SharedLibraryError(library: fileName, reason: reason)
        }
        // Swift cannot make the table empty (its pointers are non-null), so it is filled in place.
        let table = UnsafeMutablePointer<Functions>.allocate(capacity: 1)
        defer { table.deallocate() }
        if let missing = resolve(handle, table) {
            dlclose(handle)
            throw SharedLibraryError(library: fileName, reason: "it has no \(String(cString: missing))")
        }
        return (handle, table.pointee)
    }
}

/// A library loaded for good (`SharedLibrary.open`, never closed): its threads and callbacks may run for the rest of
/// the process.
///
/// `@unchecked`: its one property is an immutable table of C function pointers, which Swift does not see as Sendable.
public final class LoadedLibrary<Functions>: @unchecked Sendable {
    public let functions: Functions

    /// Loads `fileName` (`SharedLibrary.open`) and keeps it loaded.
    public init(
        _ fileName: String,
        resolving resolve: (UnsafeMutableRawPointer, UnsafeMutablePointer<Functions>) -> UnsafePointer<CChar>?
    ) throws(SharedLibraryError) {
        functions = try SharedLibrary.open(fileName, resolving: resolve).functions
    }
}

/// A library that could not be loaded, or lacks a function the code calls.
public struct SharedLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file asked for (`libpulse.so.0`).
    public var library: String
    /// The loader's message, or which function it lacks.
    public var reason: String

    public init(library: String, reason: String) {
        self.library = library
        self.reason = reason
    }

    public var description: String { "\(library) cannot be loaded: \(reason)" }
}
