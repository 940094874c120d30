//go:build !unix

package pdf

import "time"

// childrenCPU is not measured here.
func childrenCPU() time.Duration { return 0 }
