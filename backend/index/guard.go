package index

/*
#include <sqlite3.h>

// guardInit runs for every new connection (sqlite3_auto_extension), before
// it reads the database: the file may come from someone else's vault, so
// its schema is not trusted to run functions or virtual tables
// (SQLITE_DBCONFIG_TRUSTED_SCHEMA off, as PRAGMA trusted_schema=OFF), SQL
// cannot corrupt it on purpose (SQLITE_DBCONFIG_DEFENSIVE: no
// writable_schema, no direct writes to FTS5's shadow tables), and views,
// which the index never makes, cannot be used at all.
static int guardInit(sqlite3 *db, char **errMsg, const void *apiRoutines) {
  (void)errMsg;
  (void)apiRoutines;
  int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
  if (rc == SQLITE_OK) rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
  if (rc == SQLITE_OK) rc = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int *)0);
  return rc;
}

static int agenteroRegisterGuard(void) {
  return sqlite3_auto_extension((void (*)(void))guardInit);
}
*/
import "C"

import (
	"fmt"
	"sync"
)

// registerGuard makes every SQLite connection opened from now on distrust
// the schema of the file it opens (see guardInit). It is SQLite's own
// connection hook: mattn/go-sqlite3's DSN has no key for these settings,
// and a ConnectHook cannot reach sqlite3_db_config. Open calls it before
// its first connection; it covers every connection of the process, which
// opens no database but the index (and the reference copy of its schema).
var registerGuard = sync.OnceValue(func() error {
	if rc := C.agenteroRegisterGuard(); rc != 0 {
		return fmt.Errorf("guard connections: sqlite error %d", int(rc))
	}
	return nil
})
