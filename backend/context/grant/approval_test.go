package grant

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// TestApprovalsServeOneCallEach: through the socket, each approval the
// user gave serves exactly one call of its runtime id and tool, even with
// calls in parallel; what is forgotten or closed serves none, and a grant
// without the socket has no approvals.
func TestApprovalsServeOneCallEach(t *testing.T) {
	a, err := ListenApprovals(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(a.Path()); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the socket %s: %v, mode %v; want 0600", a.Path(), err, st.Mode())
	}
	g := &Grant{RuntimeID: "c1.s1", Approvals: a.Path()}
	for range 3 {
		a.Approve("c1.s1", WriteDocTool)
	}
	a.Approve("c2.s1", WriteDocTool)
	a.Approve("c1.s1", "context_other")
	var took atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if TakeApproval(g, WriteDocTool) == nil {
				took.Add(1)
			}
		}()
	}
	wg.Wait()
	if took.Load() != 3 {
		t.Errorf("%d calls took an approval, want the 3 given", took.Load())
	}
	a.Approve("c1.s1", WriteDocTool)
	a.Forget("c1.s1")
	if err := TakeApproval(g, WriteDocTool); !errors.Is(err, ErrNotApproved) {
		t.Errorf("after the turn ended: %v, want ErrNotApproved", err)
	}
	if !a.Take("c2.s1", WriteDocTool) {
		t.Error("forgetting one runtime id dropped another's approval")
	}
	if err := TakeApproval(&Grant{RuntimeID: "c1.s1"}, WriteDocTool); !errors.Is(err, ErrNotApproved) {
		t.Errorf("a grant without a socket: %v", err)
	}
	if err := TakeApproval(&Grant{RuntimeID: "c1.s1", Approvals: filepath.Join(t.TempDir(), "none.sock")}, WriteDocTool); !errors.Is(err, ErrNotApproved) {
		t.Errorf("a socket no one serves: %v", err)
	}
	a.Approve("c1.s1", WriteDocTool)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := TakeApproval(g, WriteDocTool); !errors.Is(err, ErrNotApproved) {
		t.Errorf("after Close: %v", err)
	}
	if _, err := os.Stat(a.Path()); err == nil {
		t.Error("Close left the socket")
	}
}
