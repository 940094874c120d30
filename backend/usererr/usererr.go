// Package usererr is the one shape of a failure told in the user's words:
// a message written for the user that is, for errors.Is and errors.As, each
// of a few kinds (a domain error that decides the code the UI sees, and the
// cause underneath). It imports nothing of ours, so that every package that
// tells the user what went wrong (agentconf, acp, workspace) can use it.
package usererr

// Error reads its message and is each of its kinds. The kinds' own
// messages are not repeated: they are Go's, JSON-RPC's or a domain error's
// short name, not the user's sentence.
type Error struct {
	msg   string
	kinds []error
}

func (e *Error) Error() string   { return e.msg }
func (e *Error) Unwrap() []error { return e.kinds }

// New returns an error that reads msg and is each of kinds.
func New(msg string, kinds ...error) error { return &Error{msg: msg, kinds: kinds} }

// Mark gives err the kind of a domain error while keeping err's message:
// the result is both kind and err.
func Mark(kind, err error) error { return &Error{msg: err.Error(), kinds: []error{kind, err}} }
