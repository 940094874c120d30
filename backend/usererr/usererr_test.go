package usererr_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/agentero/agentero/backend/usererr"
)

var errDomain = errors.New("domain")

// The message is the user's sentence alone, and the error is each of its
// kinds, however deeply it is wrapped afterwards.
func TestError(t *testing.T) {
	cause := &fs.PathError{Op: "open", Path: "/x", Err: fs.ErrNotExist}
	for _, tt := range []struct {
		name     string
		err      error
		msg      string
		is, isnt []error
	}{
		{"new", usererr.New("the agent could not be started", errDomain, context.Canceled), "the agent could not be started",
			[]error{errDomain, context.Canceled}, []error{context.DeadlineExceeded}},
		{"new without kinds", usererr.New("plain"), "plain", nil, []error{errDomain}},
		{"mark", usererr.Mark(errDomain, cause), "open /x: file does not exist", []error{errDomain, fs.ErrNotExist}, []error{context.Canceled}},
		{"wrapped", fmt.Errorf("start: %w", usererr.Mark(errDomain, cause)), "start: open /x: file does not exist",
			[]error{errDomain, fs.ErrNotExist}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.msg {
				t.Errorf("message %q, want %q", got, tt.msg)
			}
			for _, k := range tt.is {
				if !errors.Is(tt.err, k) {
					t.Errorf("not %v", k)
				}
			}
			for _, k := range tt.isnt {
				if errors.Is(tt.err, k) {
					t.Errorf("is %v", k)
				}
			}
		})
	}
	var pe *fs.PathError
	if !errors.As(usererr.Mark(errDomain, cause), &pe) || pe.Path != "/x" {
		t.Errorf("errors.As found %v, want the cause", pe)
	}
}
