package intake

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"github.com/agentero/agentero/backend/atomicfile"
	"hash"
	"io"
	"sort"
)

type hashWriter struct{ h hash.Hash }

func newHashWriter() *hashWriter                  { return &hashWriter{sha256.New()} }
func (w *hashWriter) Write(p []byte) (int, error) { return w.h.Write(p) }
func (w *hashWriter) sum() string                 { return hex.EncodeToString(w.h.Sum(nil)) }

// ctxReader stops a copy when its context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func atomicWriteFrom(path string, r io.Reader, ctx context.Context) error {
	return atomicfile.WriteFrom(path, &ctxReader{ctx: ctx, r: r}, 0o644)
}
