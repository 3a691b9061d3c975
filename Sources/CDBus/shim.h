// Brings libdbus (Debian: libdbus-1-dev) into Swift, for the music kind's MPRIS client.
#include <dbus/dbus.h>
#include <stdlib.h>

// libdbus's argument helpers are variadic, which Swift cannot call, and `DBusError` is a struct of bit-fields that must
// be set up by `dbus_error_init`: these small wrappers are what the Swift side calls instead.

/// A `DBusError` on the heap, initialised; free it with `widgetd_dbus_error_free`.
static inline DBusError *_Nullable widgetd_dbus_error_new(void) {
    DBusError *error = malloc(sizeof *error);
    if (error != NULL) dbus_error_init(error);
    return error;
}

static inline void widgetd_dbus_error_free(DBusError *_Nullable error) {
    if (error == NULL) return;
    dbus_error_free(error);
    free(error);
}

/// The error's message, or NULL when none was set.
static inline const char *_Nullable widgetd_dbus_error_message(const DBusError *_Nonnull error) {
    return dbus_error_is_set(error) ? error->message : NULL;
}

/// Appends one string argument (`dbus_message_append_args` with `DBUS_TYPE_STRING`).
static inline dbus_bool_t widgetd_dbus_append_string(DBusMessage *_Nonnull message, const char *_Nonnull text) {
    return dbus_message_append_args(message, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID);
}
