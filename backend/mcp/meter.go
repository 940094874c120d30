package mcp

// The reading budget of a turn: what its tool results hold, in characters,
// against the grant's turnChars.

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/context/grant"
)

// tally is what a turn has read so far.
type tally struct {
	used  int // characters of the results returned
	calls int // results returned
}

// meter counts a turn's results against its limit. Calls run in parallel;
// charge is the one step that decides, so two calls that both measured
// room can never take more than the limit together.
type meter interface {
	// tally is what the turn has taken so far.
	tally() (tally, error)
	// charge takes n characters for a result of tool when they fit in
	// what is left, and reports whether they did.
	charge(tool string, n int) (bool, error)
}

// memMeter is a meter in memory: the turn of a server with no grant file
// to follow (in-process servers), and each request of the whole-vault
// server. mu guards used and calls; nothing blocks under it.
type memMeter struct {
	limit int

	mu    sync.Mutex // guards used and calls (see above)
	used  int
	calls int
}

func (m *memMeter) tally() (tally, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return tally{m.used, m.calls}, nil
}

func (m *memMeter) charge(_ string, n int) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.used+n > m.limit {
		return false, nil
	}
	m.used += n
	m.calls++
	return true, nil
}

// ledger is the meter of one turn of a grant, kept in a file beside the
// grant (budget-<turn>.jsonl), so that every server process of the grant
// charges the same budget: an agent may keep one process across turns,
// start several, or restart one within a turn, and none of that gives a
// turn more than its budget. A new turn is a new file.
//
// Each charge appends one record {"id","tool","chars"} in a single
// O_APPEND write (records never interleave), then reads the file back.
// Records are taken in file order, each when it fits in what the records
// taken before it left: every process computes the same answer from the
// same prefix, so the ledger needs no lock, and concurrent calls cannot
// pass the limit together. A record that does not fit takes nothing. A
// file that cannot be read whole — a torn record (a disk that was full),
// a record that is not one, a file past maxLedger — counts as spent: the
// ledger fails closed.
type ledger struct {
	path  string
	limit int
}

// maxLedger bounds a ledger file: some 15,000 calls in one turn.
const maxLedger = 1 << 20

// ledgerPath is where the budget of turn is kept for grant g.
func ledgerPath(g *grant.Grant, turn string) string {
	return filepath.Join(filepath.Dir(grant.Path(g.Vault, g.RuntimeID)), "budget-"+turn+".jsonl")
}

// errLedger is a ledger that cannot be read whole.
var errLedger = errors.New("the turn's budget ledger is not readable")

type ledgerRecord struct {
	ID    string `json:"id"`
	Tool  string `json:"tool"`
	Chars int    `json:"chars"`
}

func (l ledger) tally() (tally, error) {
	t, _, err := l.replay("")
	return t, err
}

func (l ledger) charge(tool string, n int) (bool, error) {
	var b [8]byte
	rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	line, err := json.Marshal(ledgerRecord{ID: id, Tool: tool, Chars: n})
	if err != nil {
		return false, err
	}
	if err := atomicfile.AppendShared(l.path, append(line, '\n'), atomicfile.Private); err != nil {
		return false, fmt.Errorf("%w: %w", errLedger, err)
	}
	_, taken, err := l.replay(id)
	return taken, err
}

// replay reads the ledger and returns what its records took, and whether
// the record id was taken. A last record with no line end is being written
// by another call: it is not counted yet (it comes after every record that
// call read back).
func (l ledger) replay(id string) (tally, bool, error) {
	spent := tally{used: l.limit}
	data, err := l.read()
	if err != nil {
		return spent, false, err
	}
	var t tally
	taken := false
	lines := bytes.Split(data, []byte{'\n'})
	for _, line := range lines[:len(lines)-1] {
		var r ledgerRecord
		if json.Unmarshal(line, &r) != nil || r.ID == "" || r.Chars < 0 {
			return spent, false, fmt.Errorf("%w: a record is torn", errLedger)
		}
		if t.used+r.Chars > l.limit {
			continue
		}
		t.used += r.Chars
		t.calls++
		if r.ID == id {
			taken = true
		}
	}
	return t, taken, nil
}

func (l ledger) read() ([]byte, error) {
	f, err := atomicfile.Open(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errLedger, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxLedger+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errLedger, err)
	}
	if len(data) > maxLedger {
		return nil, fmt.Errorf("%w: it is larger than %d bytes", errLedger, maxLedger)
	}
	return data, nil
}
