// Brings libpulse's asynchronous API (Debian: libpulse-dev) into Swift: the threaded main loop, the context, its
// introspection and subscription calls.
#include <pulse/pulseaudio.h>
#include <pulse/thread-mainloop.h>
#include <dlfcn.h>
#include <stddef.h>

// The libpulse functions the sound kind calls, loaded with dlopen when the first sound widget connects: nothing
// links libpulse, so no other process maps it and the twenty libraries under it (PulseConnection). Each entry's
// type is taken from libpulse's headers, so the table cannot drift from the declarations.
#define WIDGETD_PULSE_FUNCTIONS(X) \
    X(context_connect) X(context_disconnect) X(context_errno) X(context_get_server_info) \
    X(context_get_sink_info_list) X(context_get_source_info_list) X(context_get_state) X(context_new) \
    X(context_set_sink_mute_by_name) X(context_set_sink_volume_by_name) X(context_set_source_mute_by_name) \
    X(context_set_source_volume_by_name) X(context_set_state_callback) X(context_set_subscribe_callback) \
    X(context_subscribe) X(context_unref) X(gettimeofday) X(operation_unref) X(strerror) \
    X(threaded_mainloop_free) X(threaded_mainloop_get_api) X(threaded_mainloop_lock) X(threaded_mainloop_new) \
    X(threaded_mainloop_set_name) X(threaded_mainloop_start) X(threaded_mainloop_unlock) X(timeval_add)

/// Pointers to libpulse's functions in a loaded libpulse, named without their `pa_` prefix.
struct widgetd_pulse {
#define WIDGETD_PULSE_FIELD(name) __typeof__(&pa_##name) _Nonnull name;
    WIDGETD_PULSE_FUNCTIONS(WIDGETD_PULSE_FIELD)
#undef WIDGETD_PULSE_FIELD
};

/// Fills `functions` from `library` (a dlopen handle) with dlsym. Returns NULL when every function was found, else
/// the name of the first one missing.
static inline const char *_Nullable widgetd_pulse_resolve(
    void *_Nonnull library, struct widgetd_pulse *_Nonnull functions) {
#define WIDGETD_PULSE_RESOLVE(name) \
    if ((functions->name = dlsym(library, "pa_" #name)) == NULL) return "pa_" #name;
    WIDGETD_PULSE_FUNCTIONS(WIDGETD_PULSE_RESOLVE)
#undef WIDGETD_PULSE_RESOLVE
    return NULL;
}
