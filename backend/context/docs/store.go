package docs

// Context documents as a store (seed 003, SPEC §8.2): every write returns a
// receipt, edits replace whole documents and may carry the revision or
// etag they were based on; a stale one is a conflict and nothing is
// written.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/vault"
)

// Receipt is what a write returns, never the body: where the document is,
// whether it was created, and the tokens an edit based on it must carry.
type Receipt struct {
	ID        string `json:"id"`
	Created   bool   `json:"created"`
	Revision  string `json:"revision"`  // changes with the file's bytes (front matter included)
	Etag      string `json:"etag"`      // changes with every write, even of the same bytes
	SizeBytes int    `json:"sizeBytes"` // UTF-8 bytes of the document as stored
	SHA256    string `json:"sha256"`    // of those bytes
}

// Expect is what an edit was based on; empty fields are not checked. Both
// given must both match.
type Expect struct {
	Revision string `json:"expectedRevision,omitempty"`
	Etag     string `json:"expectedEtag,omitempty"`
}

// ErrConflict is a write whose expected revision or etag is stale.
var ErrConflict = errors.New("the document changed since the revision or etag you give: read it again and retry from its current revision")

// writeMu makes check-and-write one step within this process.
var writeMu sync.Mutex

// Stat returns the receipt of a document as it is now (Created false).
func Stat(vaultRoot, id string) (Receipt, error) {
	dir, err := folder(vaultRoot, false)
	if err != nil {
		return Receipt{}, ErrNotFound
	}
	p, err := target(dir, id)
	if err != nil {
		return Receipt{}, err
	}
	return stat(vaultRoot, id, p)
}

func stat(vaultRoot, id, p string) (Receipt, error) {
	data, err := vault.ReadFile(context.Background(), vaultRoot, Dir+"/"+id, vault.KindContextDoc)
	if err != nil {
		return Receipt{}, ErrNotFound
	}
	st, err := os.Lstat(p)
	if err != nil {
		return Receipt{}, ErrNotFound
	}
	return receipt(id, data, st), nil
}

func receipt(id string, data []byte, st fs.FileInfo) Receipt {
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:])
	return Receipt{ID: id, Revision: "rev-" + h[:16], Etag: fmt.Sprintf("\"%x-%x\"", st.Size(), st.ModTime().UnixNano()),
		SizeBytes: len(data), SHA256: h}
}

// Write stores a whole document (front matter and body) and returns its
// receipt. With expectations, the current document must match them (an
// expectation on a document that does not exist is a conflict); without,
// any current document is replaced. Front matter that does not parse is an
// InputError, and nothing is written.
func Write(vaultRoot, id, content string, expect Expect) (Receipt, error) {
	if len(content) > MaxSource {
		return Receipt{}, &InputError{fmt.Sprintf("a context document may hold at most %d KB", MaxSource>>10)}
	}
	if _, _, err := parseDoc([]byte(content)); err != nil {
		return Receipt{}, &InputError{err.Error()}
	}
	dir, err := folder(vaultRoot, true)
	if err != nil {
		return Receipt{}, err
	}
	p, err := target(dir, id)
	if err != nil {
		return Receipt{}, err
	}
	writeMu.Lock()
	defer writeMu.Unlock()
	cur, err := stat(vaultRoot, id, p)
	exists := err == nil
	if expect.Revision != "" || expect.Etag != "" {
		if !exists || (expect.Revision != "" && expect.Revision != cur.Revision) || (expect.Etag != "" && expect.Etag != cur.Etag) {
			return Receipt{}, ErrConflict
		}
	}
	if err := atomicfile.Write(p, []byte(content), atomicfile.Private); err != nil {
		return Receipt{}, err
	}
	r, err := stat(vaultRoot, id, p)
	if err != nil {
		return Receipt{}, err
	}
	r.Created = !exists
	return r, nil
}
