import Basics
import CPulse
import Testing

@testable import SystemKinds

/// The tables of libpulse's and libdbus's functions the kinds load with dlopen (`SharedLibrary`): every function the
/// shims list is in the libraries this machine has, and a library that is not there is an error that names it.
@Suite struct LoadedLibrariesTests {
    @Test func libpulseHasEveryFunctionTheSoundKindCalls() throws {
        _ = try LoadedLibrary<widgetd_pulse>("libpulse.so.0") { widgetd_pulse_resolve($0, $1) }
    }

    @Test func libdbusHasEveryFunctionTheMusicKindCalls() throws {
        _ = try DBusLibrary.loaded.get()
    }

    @Test func aMissingLibraryIsNamedWithTheLoadersReason() {
        #expect {
            _ = try LoadedLibrary<widgetd_pulse>("libpulse-widgetd-missing.so.0") { widgetd_pulse_resolve($0, $1) }
        } throws: { error in
            guard let error = error as? SharedLibraryError else { return false }
            return error.library == "libpulse-widgetd-missing.so.0"
                && "\(error)".hasPrefix("libpulse-widgetd-missing.so.0 cannot be loaded: ")
                && error.reason.contains("No such file")
        }
    }

    @Test func aLibraryWithoutTheFunctionsNamesTheFirstMissing() {
        #expect(throws: SharedLibraryError(library: "libm.so.6", reason: "it has no pa_context_connect")) {
            _ = try LoadedLibrary<widgetd_pulse>("libm.so.6") { widgetd_pulse_resolve($0, $1) }
        }
    }
}
