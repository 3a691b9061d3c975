// Brings SQLite (Debian: libsqlite3-dev) into Swift.
#include <sqlite3.h>
