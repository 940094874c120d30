//go:build !unix

package index_test

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }
