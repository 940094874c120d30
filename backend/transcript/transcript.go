// Package transcript owns a conversation's transcript, transcript.jsonl
// in its folder: the entry type, appending to it and reading it back. The
// host writes through it (acp) and whoever reads a conversation's past
// (context/history, the commands) reads through it; nobody else parses
// the file.
package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/agentero/agentero/backend/atomicfile"
)

// File is the transcript's name in a conversation's folder.
const File = "transcript.jsonl"

// Entry is one line of transcript.jsonl: every turn is kept whole, user,
// assistant, tool calls and results, thoughts, status and errors.
type Entry struct {
	At        time.Time `json:"at"`
	Turn      string    `json:"turn"` // the user message id of the turn
	Kind      string    `json:"kind"` // user, assistant, thought, tool_call, tool_update, permission, plan, status, error
	Text      string    `json:"text,omitempty"`
	ToolCall  string    `json:"toolCallId,omitempty"`
	Data      any       `json:"data,omitempty"`
	SessionID string    `json:"sessionId,omitempty"`
}

// Append adds entries to the transcript in the conversation folder dir
// (which the caller has checked is a real, private folder of the vault's
// state). The transcript is only ever appended to, whole lines at a time: a
// write the disk cannot take whole is taken back. A conversation's appends
// come from its turn, one at a time.
func Append(dir string, entries ...Entry) error {
	if len(entries) == 0 {
		return nil
	}
	var buf bytes.Buffer
	for _, e := range entries {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return atomicfile.Append(filepath.Join(dir, File), buf.Bytes(), atomicfile.Private)
}

// Read reads the transcript in the conversation folder dir, opened as a
// regular file and never through a link (atomicfile.Open). A conversation
// without a transcript has no entries (and no error).
func Read(dir string) ([]Entry, error) {
	f, err := atomicfile.Open(filepath.Join(dir, File))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Decode(f)
}

// maxLine is the longest line read back; a longer one ends the reading
// with an error.
const maxLine = 64 << 20

// Decode reads transcript lines from r. A line that is not an entry (torn
// by a crash before Append took writes back whole, or hand-edited) is
// skipped.
func Decode(r io.Reader) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), maxLine)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			out = append(out, e)
		}
	}
	return out, sc.Err()
}
