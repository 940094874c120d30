package index

/*
#cgo LDFLAGS: -lm
#include "rank.h"
*/
import "C"

import (
	"fmt"
	"sync"
)

// registerRank makes agentero_rank (see rank.c) available on every SQLite
// connection opened from now on. Open calls it before its first connection.
var registerRank = sync.OnceValue(func() error {
	if rc := C.agenteroRegisterRank(); rc != 0 {
		return fmt.Errorf("register agentero_rank: sqlite error %d", int(rc))
	}
	return nil
})
