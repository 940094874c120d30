//go:build !linux

package sandbox

import "errors"

func landlockWorks() error { return errors.New("exists only on Linux") }

// RunConfined is unavailable where Landlock is.
func RunConfined(args []string) error { return errors.New("Landlock exists only on Linux") }
