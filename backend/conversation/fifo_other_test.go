//go:build !unix

package conversation_test

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs") }
