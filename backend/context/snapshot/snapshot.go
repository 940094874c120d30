// Package snapshot freezes the base context of an agent session (SPEC
// §8.1): the vault's guidance file with its imports expanded, the always-on
// context document manifest and the model-decision index. A conversation
// keeps its snapshot beside its transcript and reuses it on resume, load
// and handover, so that edits on disk change only sessions created later.
package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentero/agentero/backend/context/docs"
	"github.com/agentero/agentero/backend/context/skills"
	"github.com/agentero/agentero/backend/context/wire"
	"github.com/agentero/agentero/backend/vault"
)

// Version is the snapshot.json format this code writes and reads.
const Version = 1

// Options tunes Build; the zero value means defaults.
type Options struct {
	MaxImportDepth int              // 0 means DefaultMaxImportDepth
	PreloadBudget  int              // used when rules.json sets none; 0 means docs.DefaultPreloadBudget
	Now            func() time.Time // the clock of CreatedAt
}

// Snapshot is the frozen base context of a session. Everything Render needs
// is in it, so a stored snapshot renders the same bytes whatever has
// changed on disk since.
type Snapshot struct {
	Version   int            `json:"version"`
	Guidance  *Guidance      `json:"guidance"` // nil when the vault has no guidance file
	Imports   []Import       `json:"imports"`
	Manifest  docs.Manifest  `json:"manifest"`
	Index     docs.Index     `json:"index"`
	Skills    []skills.Skill `json:"skills,omitempty"` // the vault's skills: names and descriptions
	Bytes     Bytes          `json:"bytes"`
	Issues    []Issue        `json:"issues"`
	Hash      string         `json:"hash"` // sha256 of Render()
	CreatedAt time.Time      `json:"createdAt"`
}

// Bytes are the sizes of the rendered parts.
type Bytes struct {
	Guidance int `json:"guidance"`
	Manifest int `json:"manifest"`
	Index    int `json:"index"`
	Total    int `json:"total"` // len(Render())
}

// Build takes the snapshot a new session of the vault at vaultRoot would
// get. Unusable imports and documents become Issues; it fails only when
// the vault cannot be read, the context rules are malformed, a selected
// context document cannot be read, or the always-on manifest cannot fit
// its budget (docs.ErrManifestTooLarge).
func Build(vaultRoot string, opts Options) (*Snapshot, error) {
	if opts.MaxImportDepth <= 0 {
		opts.MaxImportDepth = DefaultMaxImportDepth
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	root, err := filepath.EvalSymlinks(vaultRoot)
	if err != nil {
		return nil, fmt.Errorf("open vault: %w", err)
	}
	vr, err := vault.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open vault: %w", err)
	}
	defer vr.Close()
	g := &guidance{root: root, vr: vr, maxDepth: opts.MaxImportDepth, done: map[string]bool{}}
	s := &Snapshot{Version: Version, Guidance: g.choose(), CreatedAt: opts.Now().UTC()}
	s.Imports = append([]Import{}, g.imports...)
	s.Issues = append([]Issue{}, g.issues...)

	cat, err := docs.Scan(root)
	if err != nil {
		return nil, err
	}
	for _, p := range append(cat.Problems, cat.Notices...) {
		s.Issues = append(s.Issues, Issue{Path: p.Path, Problem: p.Problem})
	}
	if s.Manifest, s.Index, err = cat.Assemble(opts.PreloadBudget); err != nil {
		return nil, fmt.Errorf("context documents: %w", err)
	}
	list, problems, err := skills.Scan(root)
	if err != nil {
		return nil, fmt.Errorf("skills: %w", err)
	}
	s.Skills = list
	for _, p := range problems {
		s.Issues = append(s.Issues, Issue{Path: p.Path, Problem: p.Problem})
	}
	s.seal()
	return s, nil
}

// seal fills in the sizes and the hash from the rendered text.
func (s *Snapshot) seal() {
	r := s.Render()
	s.Bytes = Bytes{Manifest: len(s.Manifest.Render()), Index: len(s.Index.Render()), Total: len(r)}
	if s.Guidance != nil {
		s.Bytes.Guidance = len(s.guidanceText())
	}
	s.Hash = hash(r)
}

func hash(r string) string {
	h := sha256.Sum256([]byte(r))
	return "sha256:" + hex.EncodeToString(h[:])
}

// Render writes the frozen base context as a session with every tool gets
// it (its hash is of this text). The same snapshot always gives the same
// bytes; a vault with no guidance and no loaded documents gives "".
func (s *Snapshot) Render() string {
	return s.RenderFor(Session{Tools: []string{"context_read_doc", "context_read_skill"}})
}

// Session is what a session can do, which decides how the snapshot is
// written for it.
type Session struct {
	Tools  []string // the tools it can call; none for prompt-only and warm sessions
	Remote bool     // the agent runs elsewhere: sensitive documents' bodies are left out
}

// RenderFor writes the frozen base context that goes first in a new
// session's prompt, before any per-turn part. A tool is named only when the
// session has it: without context_read_doc there is no document index and
// no "read on with" line; without context_read_skill the skills are listed
// without how to read them.
func (s *Snapshot) RenderFor(sess Session) string {
	docTools := slices.Contains(sess.Tools, "context_read_doc")
	var parts []string
	if s.Guidance != nil {
		parts = append(parts, s.guidanceText())
	}
	if m := s.Manifest.RenderFor(docTools, sess.Remote); m != "" {
		parts = append(parts, m)
	}
	if docTools {
		if ix := s.Index.Render(); ix != "" {
			parts = append(parts, ix)
		}
	}
	if sk := skills.Render(s.Skills, slices.Contains(sess.Tools, "context_read_skill")); sk != "" {
		parts = append(parts, sk)
	}
	return strings.Join(parts, "\n")
}

func (s *Snapshot) guidanceText() string {
	text := s.Guidance.Text
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return fmt.Sprintf(wire.GuidanceOpen+"file=%q>\n%s"+wire.GuidanceClose+"\n", s.Guidance.Path, text)
}
