// sqlite3_db_config, which Swift cannot call: its arguments are C varargs.
#ifndef GQLCACHE_CSQLITECONFIG_SHIM_H
#define GQLCACHE_CSQLITECONFIG_SHIM_H

#include <sqlite3.h>

/// Whether `db` checkpoints its -wal file into the database when it closes
/// as the file's last connection (on, SQLite's default), or leaves it
/// (off: SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE). Returns SQLITE_OK, or an error code.
static inline int gqlcache_sqlite3_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on ? 0 : 1, (int *)0);
}

#endif
