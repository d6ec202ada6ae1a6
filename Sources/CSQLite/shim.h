// Debian's SQLite (libsqlite3-dev), as GRDB brings in a system SQLite.
#include <sqlite3.h>
