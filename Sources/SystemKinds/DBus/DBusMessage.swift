internal import CDBus

/// One D-Bus message (`DBusMessage *`), released when this goes: a signal or a reply read from the bus, or a method
/// call made to be sent.
final class DBusMessage {
    let pointer: OpaquePointer
    /// libdbus's functions (`DBusLibrary`).
    private let dbus: widgetd_dbus

    /// Takes over a reference the caller owns (from `dbus_connection_pop_message`, a reply, `new_method_call`).
    init(owning pointer: OpaquePointer, _ dbus: widgetd_dbus) {
        self.pointer = pointer
        self.dbus = dbus
    }

    /// A method call to `destination`, with string arguments; nil when libdbus is out of memory or a name is invalid,
    /// or it is not loaded (there is no connection to send it on then).
    convenience init?(
        call method: String, of interface: String, on path: String, at destination: String,
        arguments: [String] = []
    ) {
        guard case .success(let library) = DBusLibrary.loaded,
            let pointer = library.functions.message_new_method_call(destination, path, interface, method)
        else { return nil }
        self.init(owning: pointer, library.functions)
        for argument in arguments where widgetd_dbus_append_string(dbus, pointer, argument) == 0 { return nil }
    }

    deinit {
        dbus.message_unref(pointer)
    }

    var isSignal: Bool { dbus.message_get_type(pointer) == DBUS_MESSAGE_TYPE_SIGNAL }
    var sender: String? { dbus.message_get_sender(pointer).map { String(cString: $0) } }
    var path: String? { dbus.message_get_path(pointer).map { String(cString: $0) } }
    var interface: String? { dbus.message_get_interface(pointer).map { String(cString: $0) } }
    var member: String? { dbus.message_get_member(pointer).map { String(cString: $0) } }

    /// Whether it is the signal `member` of `interface`.
    func isSignal(_ member: String, of interface: String) -> Bool {
        isSignal && self.member == member && self.interface == interface
    }

    /// Its arguments, read with libdbus's iterator.
    var arguments: [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus.message_iter_init(pointer, &iterator) != 0 else { return [] }
        return values(&iterator, depth: 0)
    }

    /// How deep containers are read: a message's own limit is 64, and MPRIS needs 4 (a variant in a dictionary in an
    /// array), so deeper is skipped rather than recursed into.
    static let depthLimit = 16

    /// Every value from `iterator` on, at its level.
    private func values(_ iterator: inout DBusMessageIter, depth: Int) -> [DBusValue] {
        var values: [DBusValue] = []
        while true {
            let type = dbus.message_iter_get_arg_type(&iterator)
            if type == 0 { break }  // DBUS_TYPE_INVALID
            values.append(value(&iterator, type: type, depth: depth))
            if dbus.message_iter_next(&iterator) == 0 { break }
        }
        return values
    }

    private func value(_ iterator: inout DBusMessageIter, type: Int32, depth: Int) -> DBusValue {
        var basic = DBusBasicValue()
        switch UInt8(truncatingIfNeeded: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            dbus.message_iter_get_basic(&iterator, &basic)
            return .string(basic.str.map { String(cString: $0) } ?? "")
        case UInt8(ascii: "y"):
            dbus.message_iter_get_basic(&iterator, &basic)
            return .integer(Int64(basic.byt))
        case UInt8(ascii: "n"):
            dbus.message_iter_get_basic(&iterator, &basic)
            return .integer(Int64(basic.i16))
        case UInt8(ascii: "q"):
            dbus.message_iter_get_basic(&iterator, &basic)
            return .integer(Int64(basic.u16))
        case UInt8(ascii: "i"):
            dbus.message_iter_get_basic(&iterator, &basic)
            return .integer(Int64(basic.i32))
        case UInt8(ascii: "u"):
            dbus.message_iter_get_basic(&iterator, &basic)
            return .integer(Int64(basic.u32))
        case UInt8(ascii: "x"):
            dbus.message_iter_get_basic(&iterator, &basic)
            return .integer(Int64(basic.i64))
        case UInt8(ascii: "t"):
            dbus.message_iter_get_basic(&iterator, &basic)
            return .integer(Int64(clamping: basic.u64))
        case UInt8(ascii: "d"):
            dbus.message_iter_get_basic(&iterator, &basic)
            return .double(basic.dbl)
        case UInt8(ascii: "b"):
            dbus.message_iter_get_basic(&iterator, &basic)
            return .bool(basic.bool_val != 0)
        case UInt8(ascii: "v"), UInt8(ascii: "a"), UInt8(ascii: "r"), UInt8(ascii: "e"):
            guard depth < Self.depthLimit else { return .other([]) }
            var inner = DBusMessageIter()
            dbus.message_iter_recurse(&iterator, &inner)
            let contents = values(&inner, depth: depth + 1)
            switch UInt8(truncatingIfNeeded: type) {
            case UInt8(ascii: "v"): return contents.first ?? .other([])
            case UInt8(ascii: "a"):
                if dbus.message_iter_get_element_type(&iterator) == Int32(UInt8(ascii: "e")) {
                    return .dictionary(
                        contents.compactMap {
                            guard case .other(let pair) = $0, pair.count == 2 else { return nil }
                            return (key: pair[0], value: pair[1])
                        })
                }
                return .array(contents)
            default: return .other(contents)
            }
        default:
            return .other([])
        }
    }
}
