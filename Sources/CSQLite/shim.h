// Brings SQLite (Debian: libsqlite3-dev) into Swift.
#include <sqlite3.h>
#include <dlfcn.h>
#include <stddef.h>

// The SQLite functions the Store calls, loaded with dlopen when the first connection opens (a daemon whose
// widgets never read the store does not map libsqlite3 or libm, and one that did unmaps them after the read). Each
// entry's type is taken from sqlite3.h itself, so the table cannot drift from the declarations.
#define WIDGETD_SQLITE3_FUNCTIONS(X) \
    X(bind_blob) X(bind_double) X(bind_int64) X(bind_null) X(bind_parameter_count) X(bind_parameter_index) \
    X(bind_text) X(bind_zeroblob) X(busy_timeout) X(changes) X(clear_bindings) X(close_v2) X(column_blob) \
    X(column_bytes) X(column_count) X(column_double) X(column_int64) X(column_name) X(column_text) X(column_type) \
    X(create_function_v2) X(errmsg) X(extended_errcode) X(extended_result_codes) X(finalize) X(get_autocommit) \
    X(last_insert_rowid) X(open_v2) X(prepare_v2) X(reset) X(result_null) X(result_text) X(shutdown) X(step) \
    X(value_bytes) X(value_text) X(value_type)

/// Pointers to SQLite's functions in a loaded libsqlite3, named without their `sqlite3_` prefix.
struct widgetd_sqlite3 {
#define WIDGETD_SQLITE3_FIELD(name) __typeof__(&sqlite3_##name) _Nonnull name;
    WIDGETD_SQLITE3_FUNCTIONS(WIDGETD_SQLITE3_FIELD)
#undef WIDGETD_SQLITE3_FIELD
};

/// Fills `functions` from `library` (a dlopen handle) with dlsym. Returns NULL when every function was found, else
/// the name of the first one missing (a libsqlite3 older than the one we were built against).
static inline const char *_Nullable widgetd_sqlite3_resolve(
    void *_Nonnull library, struct widgetd_sqlite3 *_Nonnull functions) {
#define WIDGETD_SQLITE3_RESOLVE(name) \
    if ((functions->name = dlsym(library, "sqlite3_" #name)) == NULL) return "sqlite3_" #name;
    WIDGETD_SQLITE3_FUNCTIONS(WIDGETD_SQLITE3_RESOLVE)
#undef WIDGETD_SQLITE3_RESOLVE
    return NULL;
}
