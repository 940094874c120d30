//go:build !unix

package proctest

import "time"

// CPUTime is not measured here: false.
func CPUTime() (time.Duration, bool) { return 0, false }
