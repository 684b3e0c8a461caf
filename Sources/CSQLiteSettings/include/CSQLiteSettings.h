#ifndef STOL_CSQLITESETTINGS_H
#define STOL_CSQLITESETTINGS_H

/// Turns off SQLite's memory statistics for the whole process (`SQLITE_CONFIG_MEMSTATUS`, 0).
///
/// With statistics on, every allocation by every connection takes one process-wide mutex, and two
/// connections on two threads spend their time waiting for it. Returns SQLite's result code:
/// `SQLITE_OK`, or `SQLITE_MISUSE` once the library has been initialised (the setting can then
/// no longer change). `sqlite3_config` is variadic, which Swift cannot call; hence this function.
int stol_sqlite_disable_memory_statistics(void);

#endif
