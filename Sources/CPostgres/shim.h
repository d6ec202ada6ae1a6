// Debian's libpq (libpq-dev), the PostgreSQL client library, as CSQLite brings in libsqlite3.
#include <libpq-fe.h>
