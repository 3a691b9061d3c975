import Basics
internal import CDBus

/// libdbus, loaded the first time a music widget connects to the session bus (`DBusConnection`), and kept: a process
/// without music widgets never maps it.
enum DBusLibrary {
    static let loaded = Result { () throws(SharedLibraryError) in
        try LoadedLibrary<widgetd_dbus>("libdbus-1.so.3") { widgetd_dbus_resolve($0, $1) }
    }
}
