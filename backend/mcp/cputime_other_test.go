//go:build !unix

package mcp_test

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }
