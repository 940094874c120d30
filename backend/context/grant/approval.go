package grant

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/vault"
)

// WriteDocTool is the one agentero-context tool that writes: every call of
// it needs the user's approval, given in the thread (a permission card)
// and recorded here by the host; the server takes one approval a call and
// refuses a call without one.
const WriteDocTool = "context_write_doc"

// approvalsDir is where a runtime id's unused approvals are, one file each.
func approvalsDir(vaultRoot, runtimeID string) (string, error) {
	return vault.StateFolder(vaultRoot, "context-sessions", runtimeID, "approvals")
}

// Approve records that the user allowed one call of tool in the session of
// runtimeID.
func Approve(vaultRoot, runtimeID, tool string) error {
	if !ValidRuntimeID(runtimeID) {
		return fmt.Errorf("runtime id %q is not valid", runtimeID)
	}
	dir, err := approvalsDir(vaultRoot, runtimeID)
	if err != nil {
		return err
	}
	var b [6]byte
	rand.Read(b[:])
	name := fmt.Sprintf("%020d-%s-%s", time.Now().UnixNano(), tool, hex.EncodeToString(b[:]))
	return atomicfile.Write(filepath.Join(dir, name), []byte(tool+"\n"), atomicfile.Private)
}

// ErrNotApproved is a write the user did not approve.
var ErrNotApproved = errors.New("the user has not approved this write: ask for permission before each call of " + WriteDocTool)

// TakeApproval uses up one approval of tool for runtimeID, the oldest; it
// fails with ErrNotApproved when there is none. Taking is removing the
// file, so one approval serves one call even with calls in parallel.
func TakeApproval(vaultRoot, runtimeID, tool string) error {
	dir, err := vault.FindStateFolder(vaultRoot, "context-sessions", runtimeID, "approvals")
	if err != nil {
		return ErrNotApproved
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ErrNotApproved
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.Contains(e.Name(), "-"+tool+"-") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if os.Remove(filepath.Join(dir, n)) == nil {
			return nil
		}
	}
	return ErrNotApproved
}
