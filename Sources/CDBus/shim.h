// Brings libdbus (Debian: libdbus-1-dev) into Swift, for the music kind's MPRIS client.
#include <dbus/dbus.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

// The libdbus functions the music kind calls, loaded with dlopen when its first widget looks for the session bus:
// nothing links libdbus, so no other process maps it (MPRISListener). Each entry's type is taken from libdbus's
// headers, so the table cannot drift from the declarations.
#define WIDGETD_DBUS_FUNCTIONS(X) \
    X(bus_add_match) X(bus_register) X(connection_close) X(connection_flush) X(connection_get_is_connected) \
    X(connection_get_unix_fd) X(connection_open_private) X(connection_pop_message) X(connection_read_write) \
    X(connection_send) X(connection_send_with_reply_and_block) X(connection_set_exit_on_disconnect) \
    X(connection_unref) X(error_free) X(error_init) X(error_is_set) X(message_get_interface) X(message_get_member) \
    X(message_get_path) X(message_get_sender) X(message_get_type) X(message_iter_get_arg_type) \
    X(message_iter_get_basic) X(message_iter_get_element_type) X(message_iter_init) X(message_iter_next) \
    X(message_iter_recurse) X(message_new_method_call) X(message_set_no_reply) X(message_unref)

/// Pointers to libdbus's functions in a loaded libdbus, named without their `dbus_` prefix.
struct widgetd_dbus {
#define WIDGETD_DBUS_FIELD(name) __typeof__(&dbus_##name) _Nonnull name;
    WIDGETD_DBUS_FUNCTIONS(WIDGETD_DBUS_FIELD)
#undef WIDGETD_DBUS_FIELD
    /// `dbus_message_append_args`, which is variadic: Swift cannot call it, so only `widgetd_dbus_append_string` does.
    void *_Nonnull message_append_args;
};

/// Fills `functions` from `library` (a dlopen handle) with dlsym. Returns NULL when every function was found, else
/// the name of the first one missing.
static inline const char *_Nullable widgetd_dbus_resolve(
    void *_Nonnull library, struct widgetd_dbus *_Nonnull functions) {
#define WIDGETD_DBUS_RESOLVE(name) \
    if ((functions->name = dlsym(library, "dbus_" #name)) == NULL) return "dbus_" #name;
    WIDGETD_DBUS_FUNCTIONS(WIDGETD_DBUS_RESOLVE)
    WIDGETD_DBUS_RESOLVE(message_append_args)
#undef WIDGETD_DBUS_RESOLVE
    return NULL;
}

// libdbus's argument helpers are variadic, which Swift cannot call, and `DBusError` is a struct of bit-fields that must
// be set up by `dbus_error_init`: these small wrappers are what the Swift side calls instead, each given the loaded
// library's table.

/// A `DBusError` on the heap, initialised; free it with `widgetd_dbus_error_free`.
static inline DBusError *_Nullable widgetd_dbus_error_new(struct widgetd_dbus dbus) {
    DBusError *error = malloc(sizeof *error);
    if (error != NULL) dbus.error_init(error);
    return error;
}

static inline void widgetd_dbus_error_free(struct widgetd_dbus dbus, DBusError *_Nullable error) {
    if (error == NULL) return;
    dbus.error_free(error);
    free(error);
}

/// The error's message, or NULL when none was set.
static inline const char *_Nullable widgetd_dbus_error_message(
    struct widgetd_dbus dbus, const DBusError *_Nonnull error) {
    return dbus.error_is_set(error) ? error->message : NULL;
}

/// Appends one string argument (`dbus_message_append_args` with `DBUS_TYPE_STRING`).
static inline dbus_bool_t widgetd_dbus_append_string(
    struct widgetd_dbus dbus, DBusMessage *_Nonnull message, const char *_Nonnull text) {
    dbus_bool_t (*append)(DBusMessage *, int, ...) = dbus.message_append_args;
    return append(message, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID);
}
