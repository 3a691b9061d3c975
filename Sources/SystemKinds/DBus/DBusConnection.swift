internal import CDBus

/// A private connection to a message bus (`dbus_connection_open_private` + `dbus_bus_register`), used by one thread
/// only: the music kind's `MPRISListener`. Private, so that closing it is ours to do and nothing else in the process
/// shares it; its descriptor is polled by that thread beside its wake-up pipe, so nothing blocks on libdbus's own
/// loop.
final class DBusConnection {
    private let pointer: OpaquePointer
    /// libdbus's functions (`DBusLibrary`).
    let dbus: widgetd_dbus

    /// Connects to the bus at `address` and says hello; the error is libdbus's message, or why libdbus cannot be
    /// loaded.
    init(address: String) throws(DBusConnectionError) {
        let dbus: widgetd_dbus
        switch DBusLibrary.loaded {
        case .success(let library): dbus = library.functions
        case .failure(let error): throw DBusConnectionError(error.description)
        }
        let error = widgetd_dbus_error_new(dbus)
        defer { widgetd_dbus_error_free(dbus, error) }
        guard let connection = dbus.connection_open_private(address, error) else {
            throw DBusConnectionError(Self.message(of: error, dbus))
        }
        // A bus that goes away must be a state on the widgets, never the process's exit (libdbus's default for shared
        // connections).
        dbus.connection_set_exit_on_disconnect(connection, 0)
        guard dbus.bus_register(connection, error) != 0 else {
            let message = Self.message(of: error, dbus)
            dbus.connection_close(connection)
            dbus.connection_unref(connection)
            throw DBusConnectionError(message)
        }
        pointer = connection
        self.dbus = dbus
    }

    /// The message of an error libdbus set, or nil.
    private static func message(of error: UnsafeMutablePointer<DBusError>?, _ dbus: widgetd_dbus) -> String? {
        error.flatMap { widgetd_dbus_error_message(dbus, $0) }.map { String(cString: $0) }
    }

    deinit {
        dbus.connection_close(pointer)
        dbus.connection_unref(pointer)
    }

    /// The socket to poll for input, or nil when the connection has none (closed).
    var descriptor: Int32? {
        var descriptor: Int32 = -1
        return dbus.connection_get_unix_fd(pointer, &descriptor) != 0 ? descriptor : nil
    }

    var isConnected: Bool { dbus.connection_get_is_connected(pointer) != 0 }

    /// Asks the bus to route signals matching `rule` here (`dbus_bus_add_match`, which waits for the bus's answer).
    func addMatch(_ rule: String) throws(DBusConnectionError) {
        let error = widgetd_dbus_error_new(dbus)
        defer { widgetd_dbus_error_free(dbus, error) }
        dbus.bus_add_match(pointer, rule, error)
        if let message = Self.message(of: error, dbus) { throw DBusConnectionError(message) }
    }

    /// Reads what the socket holds and writes what is queued, without waiting (`dbus_connection_read_write` with a
    /// timeout of 0); false once the connection is closed.
    func readAndWrite() -> Bool {
        dbus.connection_read_write(pointer, 0) != 0
    }

    /// The next message read, or nil.
    func nextMessage() -> DBusMessage? {
        dbus.connection_pop_message(pointer).map { DBusMessage(owning: $0, dbus) }
    }

    /// Sends `message` and waits up to `timeout` milliseconds for its reply (`dbus_connection_send_with_reply_and_block`;
    /// signals that arrive meanwhile stay queued for `nextMessage`). Nil on an error reply or a timeout.
    func call(_ message: DBusMessage, timeout milliseconds: Int32) -> DBusMessage? {
        let error = widgetd_dbus_error_new(dbus)
        defer { widgetd_dbus_error_free(dbus, error) }
        return dbus.connection_send_with_reply_and_block(pointer, message.pointer, milliseconds, error)
            .map { DBusMessage(owning: $0, dbus) }
    }

    /// Sends `message` without waiting for a reply, and writes it out now.
    func send(_ message: DBusMessage) {
        dbus.message_set_no_reply(message.pointer, 1)
        _ = dbus.connection_send(pointer, message.pointer, nil)
        dbus.connection_flush(pointer)
    }
}

/// Why the session bus cannot be used: libdbus's message.
struct DBusConnectionError: Error, Sendable, CustomStringConvertible {
    var description: String

    init(_ message: String?) {
        description = message ?? "libdbus gave no reason"
    }
}
