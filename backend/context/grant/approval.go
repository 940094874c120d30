package grant

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// WriteDocTool is the one agentero-context tool that writes: every call of
// it needs the user's approval, given in the thread (a permission card)
// and held in the host's memory (Approvals); the server takes one approval
// a call and refuses a call without one.
const WriteDocTool = "context_write_doc"

// ErrNotApproved is a write the user did not approve.
var ErrNotApproved = errors.New("the user has not approved this write: ask for permission before each call of " + WriteDocTool)

// Approvals are the user's approvals of write calls, kept in the host's
// memory and never in a file: a vault someone else made cannot ship one.
// The host records an approval when the user allows a permission card
// (Approve) and drops what is left when the turn ends (Forget); the turn's
// agentero-context server, another process, takes one approval a call
// through the Unix socket Path names (TakeApproval), which the grant
// carries (Grant.Approvals). The socket lives in a folder private to the
// user; all it offers is taking an approval, so a process that reaches it
// can use up an approval the user gave, never make one.
//
// Concurrency: Approve, Take and Forget may be called from any goroutine.
// Close stops the listener and waits for the connections it serves.
type Approvals struct {
	path string
	ln   net.Listener
	wg   sync.WaitGroup

	// mu guards left; nothing blocks under it.
	mu   sync.Mutex
	left map[approvalKey]int
	open map[net.Conn]bool
	done bool
}

type approvalKey struct{ runtimeID, tool string }

// ListenApprovals starts serving approvals on a new socket in dir, a
// folder private to the user (userdir.Folder).
func ListenApprovals(dir string) (*Approvals, error) {
	var b [8]byte
	rand.Read(b[:])
	p := filepath.Join(dir, hex.EncodeToString(b[:])+".sock")
	ln, err := net.Listen("unix", p)
	if err != nil {
		return nil, fmt.Errorf("serve approvals: %w", err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("serve approvals: %w", err)
	}
	a := &Approvals{path: p, ln: ln, left: map[approvalKey]int{}, open: map[net.Conn]bool{}}
	a.wg.Add(1)
	go a.serve()
	return a, nil
}

// Path is the socket the turn's server takes approvals through.
func (a *Approvals) Path() string { return a.path }

// Approve records that the user allowed one call of tool in the turn of
// runtimeID.
func (a *Approvals) Approve(runtimeID, tool string) {
	a.mu.Lock()
	a.left[approvalKey{runtimeID, tool}]++
	a.mu.Unlock()
}

// Take uses up one approval of tool for runtimeID; false when there is none.
func (a *Approvals) Take(runtimeID, tool string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	k := approvalKey{runtimeID, tool}
	if a.left[k] == 0 {
		return false
	}
	a.left[k]--
	if a.left[k] == 0 {
		delete(a.left, k)
	}
	return true
}

// Forget drops what is left of the approvals of runtimeID: they served its
// turn, which has ended.
func (a *Approvals) Forget(runtimeID string) {
	a.mu.Lock()
	for k := range a.left {
		if k.runtimeID == runtimeID {
			delete(a.left, k)
		}
	}
	a.mu.Unlock()
}

// Close stops serving and forgets every approval.
func (a *Approvals) Close() error {
	err := a.ln.Close()
	a.mu.Lock()
	a.done = true
	for c := range a.open {
		c.Close()
	}
	a.left = map[approvalKey]int{}
	a.mu.Unlock()
	a.wg.Wait()
	os.Remove(a.path)
	return err
}

// takeRequest is one line a server sends; the answer is one line, "ok" or
// "no".
type takeRequest struct {
	RuntimeID string `json:"runtimeId"`
	Tool      string `json:"tool"`
}

func (a *Approvals) serve() {
	defer a.wg.Done()
	for {
		c, err := a.ln.Accept()
		if err != nil {
			return
		}
		a.mu.Lock()
		if a.done {
			a.mu.Unlock()
			c.Close()
			return
		}
		a.open[c] = true
		a.mu.Unlock()
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			a.answer(c)
			a.mu.Lock()
			delete(a.open, c)
			a.mu.Unlock()
			c.Close()
		}()
	}
}

// answer serves one connection: one request, one answer.
func (a *Approvals) answer(c net.Conn) {
	c.SetDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(c).ReadSlice('\n')
	if err != nil {
		return
	}
	var req takeRequest
	out := "no\n"
	if json.Unmarshal(line, &req) == nil && a.Take(req.RuntimeID, req.Tool) {
		out = "ok\n"
	}
	c.Write([]byte(out))
}

// TakeApproval uses up one approval of tool for g's turn from the host
// that wrote g; it fails with ErrNotApproved when there is none, or no
// host to ask (a grant without an approvals socket). Files in the vault
// are never approvals.
func TakeApproval(g *Grant, tool string) error {
	if g.Approvals == "" || !filepath.IsAbs(g.Approvals) {
		return ErrNotApproved
	}
	c, err := net.DialTimeout("unix", g.Approvals, 5*time.Second)
	if err != nil {
		return ErrNotApproved
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	req, _ := json.Marshal(takeRequest{RuntimeID: g.RuntimeID, Tool: tool})
	if _, err := c.Write(append(req, '\n')); err != nil {
		return ErrNotApproved
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || line != "ok\n" {
		return ErrNotApproved
	}
	return nil
}
