#ifndef COORDLENS_CSQLITE_SHIM_H
#define COORDLENS_CSQLITE_SHIM_H

// The system's SQLite (Debian's libsqlite3-dev, Homebrew's sqlite, the SDK's on Apple platforms): linking it instead of
// compiling SQLite's 250,000-line amalgamation keeps a fresh build of coordlens short.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import as a macro.
static inline sqlite3_destructor_type coordlens_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
