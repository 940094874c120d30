//go:build !unix

package acp_test

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs") }
