package mcp

import (
	"bytes"
	"encoding/json"
	"os"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/atomicfile"
)

// usageLog appends one JSON line per citation URI a tool returned to
// usage.jsonl beside the grant; the host reads it into the turn's sources.
// Calls run in parallel: mu orders the writers of this process, and each
// call's lines go out in one write on an O_APPEND file, so lines never
// interleave.
type usageLog struct {
	path string
	now  func() time.Time

	mu sync.Mutex
	f  *os.File
}

// usageLine is one line of usage.jsonl (SPEC §13).
type usageLine struct {
	At          string `json:"at"`
	Tool        string `json:"tool"`
	Ref         string `json:"ref"`
	CitationURI string `json:"citationUri"`
}

func (u *usageLog) record(tool string, cites []cite) error {
	if u.path == "" || len(cites) == 0 {
		return nil
	}
	at := u.now().UTC().Format(time.RFC3339)
	var buf bytes.Buffer
	seen := map[string]bool{}
	for _, c := range cites {
		if c.uri == "" || seen[c.uri] {
			continue
		}
		seen[c.uri] = true
		line, err := marshal(usageLine{At: at, Tool: tool, Ref: c.ref, CitationURI: c.uri})
		if err != nil {
			return err
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.f == nil {
		f, err := atomicfile.Append(u.path, atomicfile.Private)
		if err != nil {
			return err
		}
		u.f = f
	}
	_, err := u.f.Write(buf.Bytes())
	return err
}

// Close closes the file.
func (u *usageLog) Close() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.f == nil {
		return nil
	}
	err := u.f.Close()
	u.f = nil
	return err
}

// meter is the turn's running total of characters returned, capped by the
// grant's turnChars.
type meter struct {
	mu    sync.Mutex
	used  int
	limit int
}

func (m *meter) room() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.limit - m.used
}

// charge takes n characters if they fit, and reports whether they did.
func (m *meter) charge(n int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.used+n > m.limit {
		return false
	}
	m.used += n
	return true
}

// marshal is JSON without HTML escaping: results are read by models, and
// "<" is one character, not six.
func marshal(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

func runeCount(s string) int { return utf8.RuneCountInString(s) }
