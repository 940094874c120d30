package mcp

import (
	"bytes"
	"encoding/json"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/atomicfile"
)

// usageLog appends one JSON line per citation URI a tool returned to
// usage.jsonl beside the grant; the host reads it into the turn's sources.
// Calls run in parallel: mu orders the writers of this process, and each
// call's lines go out in one write (atomicfile.Append: taken back when the
// disk cannot take it whole), so lines never interleave or tear.
type usageLog struct {
	path string
	now  func() time.Time

	// mu orders the writers of this process: it is held while one call's
	// lines are appended to the file (a write), and for nothing else.
	mu sync.Mutex
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
	return atomicfile.Append(u.path, buf.Bytes(), atomicfile.Private)
}

// Close releases nothing: no file stays open between records. It is kept
// for Server.Close.
func (u *usageLog) Close() error { return nil }

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
