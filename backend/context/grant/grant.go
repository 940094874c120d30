// Package grant is the written-down permission of one turn (SPEC §3–§4):
// which vault sources an agent may read, with which tools and budget. The
// host writes it before the turn; the agentero-context MCP server loads it
// and refuses everything it does not cover.
package grant

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/vault"
)

// Version is the grant file format this code writes and reads.
const Version = 1

// Source kinds.
const (
	KindPaper     = "paper"
	KindDirectory = "directory"
	KindFile      = "file"
)

// Modes of a turn.
const (
	ModeMCP        = "mcp"
	ModePromptOnly = "prompt-only"
)

// ErrRefused is the one error every refused read returns. Its text names no
// path: what was asked for is not echoed back.
var ErrRefused = errors.New("refused: that path is not readable in this turn; only the sources granted to this turn can be read")

// Source is one thing a turn may read: a paper folder, a directory (the text
// files inside it, one level listed at a time) or a single file.
type Source struct {
	Kind string `json:"kind"`
	Ref  string `json:"ref"`
}

// Budget caps what the tools return.
type Budget struct {
	SearchCards   int `json:"searchCards"`   // cards per context_search call
	CardsPerPaper int `json:"cardsPerPaper"` // of those, at most this many from one paper or file
	ExcerptChars  int `json:"excerptChars"`  // a search snippet or an excerpt around a quote
	FullChars     int `json:"fullChars"`     // one page, section, file or full read
	DirEntries    int `json:"dirEntries"`    // names in one directory listing
	TurnChars     int `json:"turnChars"`     // everything returned in one turn
}

// DefaultBudget lets an agent read three whole papers of typical length in
// one turn, while no single result passes the 25,000-token limit some MCP
// clients put on a tool result (Claude Code's default). The numbers were
// measured on the shared corpus (41 papers, 39 with a text layer), on the
// text a full read returns (page headers included; the manifest's
// text_chars leaves out white space and is about 1/1.19 of it):
//
//   - Whole papers: median 59,900 characters (16 pages), upper quartile
//     83,300, 90th percentile 100,100, longest 277,500 (83 pages). A page:
//     median 3,200, upper quartile 4,450, at most 5,500. Sent as JSON, a
//     text grows by 2 % (escaped line breaks).
//   - Tokens, counted on that JSON with Claude's published tokenizer and
//     with OpenAI's cl100k and o200k: 3.66, 3.70 and 3.72 characters a
//     token over the corpus (not 4: numbers, formulas and references);
//     3.2 to 4.5 a paper. The densest 40,000 characters (tables of
//     FlashAttention's appendix) are 14,215 tokens, 2.81 a token; the
//     densest 20,000, 2.42 a token.
//
// FullChars, what one read may return, is 40,000 characters: the densest
// stretch of the corpus of that length is 14,200 tokens, and 19,200 with a
// 35 % margin for tokenizers that split finer: under the 25,000 limit with
// the JSON around it. A typical paper is two full reads.
//
// TurnChars is 200,000 characters. Typical is the median paper: half the
// corpus is shorter. The three longest papers at or below the median
// (zoo, ResNet, countreg) take 182,000 characters of results read whole,
// which leaves about 18,000 for searches (8 cards are about 5,600) and
// metadata; two papers at the 90th percentile fit too. At 3.66 characters
// a token a full turn is about 55,000 tokens: 27 % of a 200,000-token
// window (Claude-class agents), so two such turns in one session stay
// under the first compaction tier (65 %), with the agent's own prompt and
// its answer. Three papers at the upper quartile (255,000) need a larger
// budget: the user raises it in Settings.
//
// The test TestTurnReadsThreeTypicalPapers (backend/mcp) reads them
// through the real server.
func DefaultBudget() Budget {
	return Budget{SearchCards: 8, CardsPerPaper: 3, ExcerptChars: 1500, FullChars: 40000, DirEntries: 200, TurnChars: 200000}
}

// Limits are the largest budget values a grant may carry.
var Limits = Budget{SearchCards: 50, CardsPerPaper: 50, ExcerptChars: 20000, FullChars: 200000, DirEntries: 5000, TurnChars: 1000000}

// Valid reports the first budget value that is not positive or over Limits.
func (b Budget) Valid() error {
	check := []struct {
		name     string
		val, max int
	}{
		{"searchCards", b.SearchCards, Limits.SearchCards}, {"cardsPerPaper", b.CardsPerPaper, Limits.CardsPerPaper},
		{"excerptChars", b.ExcerptChars, Limits.ExcerptChars}, {"fullChars", b.FullChars, Limits.FullChars},
		{"dirEntries", b.DirEntries, Limits.DirEntries}, {"turnChars", b.TurnChars, Limits.TurnChars},
	}
	for _, c := range check {
		if c.val <= 0 || c.val > c.max {
			return fmt.Errorf("budget %s must be between 1 and %d, not %d", c.name, c.max, c.val)
		}
	}
	return nil
}

// KindVault is the one source of a whole-vault grant (WholeVault): every
// path of the vault but Agentero's own state and hidden names. It is never
// read from a grant file: validate refuses it.
const KindVault = "vault"

// WholeVault is the grant of the loopback MCP server for the user's own
// clients (SPEC §9): the whole vault at root minus .agentero and hidden
// names, with budget b applied per request. It exists only in memory.
func WholeVault(root string, b Budget) *Grant {
	return &Grant{Version: Version, Vault: root, RuntimeID: "vault", Mode: ModeMCP,
		Allowed: []Source{{Kind: KindVault}}, Budget: b, whole: true}
}

// Whole reports whether g is a whole-vault grant.
func (g *Grant) Whole() bool { return g.whole }

// Grant is grant.json.
type Grant struct {
	Version     int       `json:"version"`
	Vault       string    `json:"vault"`
	RuntimeID   string    `json:"runtimeId"`
	CreatedAt   time.Time `json:"createdAt"`
	Mode        string    `json:"mode"`
	Fingerprint string    `json:"fingerprint"`
	// Conversation is the conversation the turn belongs to, whose earlier
	// turns context_history reads; "" for a turn outside one.
	Conversation string   `json:"conversation,omitempty"`
	Tools        []string `json:"tools"`
	Allowed      []Source `json:"allowed"`
	Budget       Budget   `json:"budget"`
	// Turn names the turn the grant is open for: Write stamps a fresh one
	// each time the host writes the grant (once a turn), and the MCP server
	// keeps one reading budget per turn, so a server an agent keeps across
	// turns starts each turn with the whole budget. "" once the turn has
	// ended (EndTurn): nothing is read between turns. Only the host writes
	// it; an agent cannot write the vault's state folder.
	Turn string `json:"turn,omitempty"`
	// Approvals is the host's socket that the server takes the user's
	// approvals of write calls from (ListenApprovals); "" when the grant
	// has no tool that writes.
	Approvals string `json:"approvals,omitempty"`

	whole bool // WholeVault: covers every clean vault path
}

var runtimeIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// ValidRuntimeID reports whether id can name a context-sessions folder.
func ValidRuntimeID(id string) bool {
	return runtimeIDPattern.MatchString(id) && !strings.Contains(id, "..")
}

// Path is where the grant of a runtime id lives in a vault.
func Path(vaultRoot, runtimeID string) string {
	return filepath.Join(vaultRoot, vault.StateDir, "context-sessions", runtimeID, "grant.json")
}

// UsagePath is where the MCP server of a runtime id logs the citations it
// returned (usage.jsonl, beside the grant), or "" for an id that cannot
// name a folder.
func UsagePath(vaultRoot, runtimeID string) string {
	if !ValidRuntimeID(runtimeID) {
		return ""
	}
	return filepath.Join(filepath.Dir(Path(vaultRoot, runtimeID)), "usage.jsonl")
}

// Write stores g as the grant of a new turn: stamped with a fresh Turn, at
// Path(g.Vault, g.RuntimeID), atomically (a temporary file renamed into
// place), private to the user. It returns the path. Its folders must be
// real folders of the vault's state (vault.StateFolder).
func Write(g Grant) (string, error) {
	g.Turn = newTurn()
	return g.store()
}

// EndTurn closes the turn of the grant of runtimeID: the grant is kept with
// no turn open, so the MCP server of that grant (one the agent keeps, or
// one of an earlier session) reads nothing until the host writes the next
// turn's grant. A runtime id without a grant (a prompt-only turn) has no
// turn to end.
func EndTurn(vaultRoot, runtimeID string) error {
	if !ValidRuntimeID(runtimeID) {
		return fmt.Errorf("end turn: runtime id %q is not valid", runtimeID)
	}
	p := Path(vaultRoot, runtimeID)
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	g, err := Load(p)
	if err != nil {
		return fmt.Errorf("end turn: %w", err)
	}
	if g.Turn == "" {
		return nil
	}
	g.Turn = ""
	_, err = g.store()
	return err
}

// turnPattern is what Write stamps: 32 hex digits.
var turnPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

func newTurn() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (g Grant) store() (string, error) {
	if err := g.validate(); err != nil {
		return "", fmt.Errorf("write grant: %w", err)
	}
	dir, err := vault.StateFolder(g.Vault, "context-sessions", g.RuntimeID)
	if err != nil {
		return "", fmt.Errorf("write grant: %w", err)
	}
	p := filepath.Join(dir, "grant.json")
	data, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return "", err
	}
	if err := atomicfile.Write(p, append(data, '\n'), atomicfile.Private); err != nil {
		return "", fmt.Errorf("write grant: %w", err)
	}
	return p, nil
}

// Load reads and checks a grant file: a missing, malformed or inconsistent
// grant, or one whose vault is gone, is an error.
func Load(p string) (*Grant, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("grant file %s does not exist", p)
		}
		return nil, fmt.Errorf("read grant: %w", err)
	}
	var g Grant
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		return nil, fmt.Errorf("grant file %s is not valid: %w", p, err)
	}
	if err := g.validate(); err != nil {
		return nil, fmt.Errorf("grant file %s is not valid: %w", p, err)
	}
	if st, err := os.Stat(g.Vault); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("the vault of this grant is gone: %s", g.Vault)
	}
	// The fields that name folders are checked against where the file is:
	// a grant is the one its vault keeps for its runtime id, so one copied
	// or planted elsewhere cannot point the server at another vault.
	abs, err := filepath.Abs(p)
	if err != nil || abs != Path(g.Vault, g.RuntimeID) {
		return nil, fmt.Errorf("grant file %s is not valid: it is not the grant its vault keeps for runtime id %q", p, g.RuntimeID)
	}
	return &g, nil
}

func (g Grant) validate() error {
	switch {
	case g.Version != Version:
		return fmt.Errorf("version %d is not %d", g.Version, Version)
	case !filepath.IsAbs(g.Vault):
		return errors.New("vault must be an absolute path")
	case !ValidRuntimeID(g.RuntimeID):
		return fmt.Errorf("runtime id %q is not valid", g.RuntimeID)
	case g.Mode != ModeMCP && g.Mode != ModePromptOnly:
		return fmt.Errorf("unknown mode %q", g.Mode)
	case g.Conversation != "" && (!ValidRuntimeID(g.Conversation) || !strings.HasPrefix(g.RuntimeID, g.Conversation+".")):
		return fmt.Errorf("conversation %q is not the one of runtime id %q", g.Conversation, g.RuntimeID)
	case g.Turn != "" && !turnPattern.MatchString(g.Turn):
		return fmt.Errorf("turn %q is not valid", g.Turn)
	case g.Approvals != "" && !filepath.IsAbs(g.Approvals):
		return errors.New("approvals must be an absolute path")
	}
	if err := g.Budget.Valid(); err != nil {
		return err
	}
	for _, s := range g.Allowed {
		if s.Kind != KindPaper && s.Kind != KindDirectory && s.Kind != KindFile {
			return fmt.Errorf("unknown source kind %q", s.Kind)
		}
		if !vault.ValidRel(s.Ref) {
			return fmt.Errorf("source %q is not a vault path", s.Ref)
		}
	}
	return nil
}

// CleanRef turns what an agent sent as a path into a clean vault-relative
// path, or ErrRefused. It refuses traversal in every disguise: "..",
// absolute paths, "~", backslashes, NUL bytes, percent-encoded (once or
// twice) forms of those, and Agentero's own state folder.
func CleanRef(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	s = strings.TrimPrefix(s, "./")
	s = strings.TrimSuffix(s, "/")
	// Every percent-decoding of the path must be as harmless as the path.
	for d, i := s, 0; i < 3; i++ {
		if !safeForm(d) {
			return "", ErrRefused
		}
		next, err := url.PathUnescape(d)
		if err != nil || next == d {
			break
		}
		d = next
	}
	if !vault.ValidRel(s) {
		return "", ErrRefused
	}
	return s, nil
}

func safeForm(s string) bool {
	if strings.ContainsAny(s, "\x00\\") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || filepath.IsAbs(s) {
		return false
	}
	for _, part := range strings.Split(s, "/") {
		if part == ".." || part == vault.StateDir {
			return false
		}
	}
	return true
}

// Covering returns the granted source that covers ref (a clean vault path),
// or ErrRefused. A paper covers its folder and everything in it; a file
// covers itself; a directory covers itself and the text files under it, but
// not PDFs, which are granted only as papers. Prefixes are compared by whole
// path components, so papers/a never covers papers/a-evil.
func (g *Grant) Covering(ref string) (Source, error) {
	if g.Mode != ModeMCP {
		return Source{}, ErrRefused
	}
	if g.whole {
		// Each path is its own source: Resolve then checks that its real
		// path is itself a clean, visible vault path (not .agentero).
		if !vault.ValidRel(ref) {
			return Source{}, ErrRefused
		}
		return Source{Kind: KindVault, Ref: ref}, nil
	}
	for _, s := range g.Allowed {
		inside := ref == s.Ref || strings.HasPrefix(ref, s.Ref+"/")
		switch {
		case s.Kind == KindFile && ref == s.Ref,
			s.Kind == KindPaper && inside,
			s.Kind == KindDirectory && inside && !strings.EqualFold(path.Ext(ref), ".pdf"):
			return s, nil
		}
	}
	return Source{}, ErrRefused
}

// Resolve checks a path an agent sent and returns its clean form, the
// source that covers it, and its absolute path on disk. Symlinks are
// followed, and the real path must stay inside the real path of the
// covering source: a link (or chain of links) out of it is refused.
func (g *Grant) Resolve(raw string) (string, Source, string, error) {
	ref, err := CleanRef(raw)
	if err != nil {
		return "", Source{}, "", err
	}
	src, err := g.Covering(ref)
	if err != nil {
		return "", Source{}, "", err
	}
	abs, err := vault.Resolve(g.Vault, ref)
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist) && g.whole:
			// Everything is granted: the path is simply not there.
			return "", Source{}, "", fmt.Errorf("%s: not found in the vault (it may have been moved or deleted)", ref)
		case errors.Is(err, fs.ErrNotExist):
			return "", Source{}, "", fmt.Errorf("not found: %s is granted but does not exist (it may have been moved or deleted)", ref)
		}
		return "", Source{}, "", ErrRefused
	}
	srcAbs, err := vault.Resolve(g.Vault, src.Ref)
	if err != nil {
		return "", Source{}, "", ErrRefused
	}
	if abs != srcAbs && !strings.HasPrefix(abs, srcAbs+string(filepath.Separator)) {
		return "", Source{}, "", ErrRefused
	}
	return ref, src, abs, nil
}

// Has reports whether the grant lists a source of that kind and ref.
func (g *Grant) Has(kind, ref string) bool {
	for _, s := range g.Allowed {
		if s.Kind == kind && s.Ref == ref {
			return true
		}
	}
	return false
}
