// Package plan turns what the user points at (a ContextRequest) into a
// ContextPlan (SPEC §3): the minimal evidence for the prompt, exactly what
// the turn may read, its budget and tools, and a fingerprint of the
// permission so that a session never quietly reads more than it was given.
package plan

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/docs"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/skills"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/vault"
)

// MaxQuoteChars is the longest quote that goes into a prompt; the rest is
// for the tools to read.
const MaxQuoteChars = 1200

// Surfaces a request can come from.
const (
	SurfaceSidebar   = "sidebar"
	SurfaceQuickChat = "quickChat"
)

// Tools are the agentero-context tools an mcp turn gets.
var Tools = []string{"context_search", "context_read", "paper_relations"}

// HistoryTool reads the conversation's own earlier turns (SPEC §8.3); every
// mcp turn has it.
const HistoryTool = "context_history"

// DocTools read the vault's context documents; an mcp turn has them when
// the vault has context documents (SPEC §8.2).
var DocTools = []string{"context_list_docs", "context_read_doc", "context_search_docs"}

// SkillTool returns a vault skill's instructions; an mcp turn has it when
// the vault has skills (SPEC §8.4).
const SkillTool = "context_read_skill"

// SessionTools are the tools an mcp turn in vault root gets: every tool the
// agentero-context server offers it is here, so the grant and its
// fingerprint name them all.
//
// A grant is read-only unless writes says the user allowed the turn's
// agent to write context documents (a per-agent setting, off by default):
// then it holds the write tool too, and each call of it still waits for
// the user's approval (SPEC §4, §8.2).
func SessionTools(vaultRoot string, writes bool) []string {
	out := append(append([]string{}, Tools...), HistoryTool)
	if writes {
		out = append(out, grant.WriteDocTool)
	}
	if vaultRoot == "" {
		return out
	}
	if cat, err := docs.Scan(vaultRoot); err == nil && cat.Len() > 0 {
		out = append(out, DocTools...)
	}
	if list, _, err := skills.Scan(vaultRoot); err == nil && len(list) > 0 {
		out = append(out, SkillTool)
	}
	return out
}

// Request is a ContextRequest: what the user points at in one turn.
type Request struct {
	Surface      string      `json:"surface"`
	CurrentPaper string      `json:"currentPaper,omitempty"`
	Selections   []Selection `json:"selections"`
	Mentions     []Mention   `json:"mentions"`
	Remote       bool        `json:"remote"`
}

// Selection is text the user selected, in a paper's PDF or in a file.
type Selection struct {
	SourcePath string      `json:"sourcePath"`
	Page       int         `json:"page,omitempty"`
	Text       string      `json:"text"`
	Rects      [][]float64 `json:"rects,omitempty"`
}

// Mention is an @-mentioned paper, directory or file.
type Mention struct {
	Kind string `json:"kind"`
	Path string `json:"path"`
}

// Card is one piece of evidence in the prompt.
type Card struct {
	Kind        string `json:"kind"` // paper or file
	Ref         string `json:"ref"`
	Title       string `json:"title"`
	Page        int    `json:"page,omitempty"`
	PageLabel   string `json:"pageLabel,omitempty"`
	Section     string `json:"section,omitempty"` // the title of the paper's section the selection is in
	Quote       string `json:"quote,omitempty"`
	Cut         bool   `json:"cut"`
	CitationURI string `json:"citationUri"`
}

// Refusal is a pointed-at thing that could not be granted, and why.
type Refusal struct {
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Plan is a ContextPlan.
type Plan struct {
	Surface     string         `json:"surface"`
	Mode        string         `json:"mode"`
	Fingerprint string         `json:"fingerprint"`
	Tools       []string       `json:"tools"`
	Allowed     []grant.Source `json:"allowed"`
	Budget      grant.Budget   `json:"budget"`
	Evidence    []Card         `json:"evidence"`
	Refused     []Refusal      `json:"refused,omitempty"`
}

// Papers is what the resolver needs to know about indexed papers.
type Papers interface {
	Paper(ctx context.Context, ref string) (index.Paper, error)
}

// sectionFinder is what an index offers to name the section of a paper a
// selected passage is in (backend/outline's sections); a Papers without it
// leaves cards without a section.
type sectionFinder interface {
	SectionOf(ctx context.Context, ref string, page int, quote string) (string, error)
}

// paperLister is what an index offers to list the papers in a folder; a
// Papers without it leaves folder grants to their text files.
type paperLister interface {
	PaperRefsUnder(ctx context.Context, folder string) ([]string, error)
}

// Resolver builds plans for one vault.
type Resolver struct {
	Vault  string       // absolute vault root
	Papers Papers       // the vault's index
	Budget grant.Budget // zero = grant.DefaultBudget()
	// WriteDocs says the turn's agent may write context documents: its
	// grant offers context_write_doc. False (the default) grants only
	// tools that read.
	WriteDocs bool
}

// ErrBadRequest marks a request that is malformed as a whole (not a single
// path that is refused).
var ErrBadRequest = errors.New("bad context request")

// Resolve builds the plan of a request. Paths that are not grantable are
// left out and listed in Refused; they never fail the whole plan.
func (r *Resolver) Resolve(ctx context.Context, req Request) (*Plan, error) {
	if req.Surface != SurfaceSidebar && req.Surface != SurfaceQuickChat {
		return nil, fmt.Errorf("%w: surface must be %q or %q", ErrBadRequest, SurfaceSidebar, SurfaceQuickChat)
	}
	b := r.Budget
	if b == (grant.Budget{}) {
		b = grant.DefaultBudget()
	}
	if err := b.Valid(); err != nil {
		return nil, err
	}
	p := &Plan{Surface: req.Surface, Budget: b, Allowed: []grant.Source{}, Evidence: []Card{}, Tools: []string{}}
	allowed := map[grant.Source]bool{}
	allow := func(s grant.Source) { allowed[s] = true }

	var current *index.Paper
	if req.CurrentPaper != "" {
		if pp, err := r.paper(ctx, req.CurrentPaper); err != nil {
			p.refuse(grant.KindPaper, req.CurrentPaper, err)
		} else {
			current = &pp
			allow(grant.Source{Kind: grant.KindPaper, Ref: pp.Ref})
		}
	}
	selected := map[string]bool{}
	for _, sel := range req.Selections {
		card, src, err := r.selection(ctx, sel)
		if err != nil {
			p.refuse("selection", sel.SourcePath, err)
			continue
		}
		allow(src)
		selected[card.Ref] = true
		p.Evidence = append(p.Evidence, card)
	}
	var mentioned []Card
	for _, m := range r.expandVault(req.Mentions) {
		card, src, err := r.mention(ctx, m)
		if err != nil {
			p.refuse(m.Kind, m.Path, err)
			continue
		}
		if allowed[src] {
			continue
		}
		allow(src)
		if card != nil {
			mentioned = append(mentioned, *card)
		}
		// A folder covers the papers inside it at any depth, searched and
		// read as papers (a directory grant alone covers text files only).
		if src.Kind == grant.KindDirectory {
			if l, ok := r.Papers.(paperLister); ok {
				refs, err := l.PaperRefsUnder(ctx, src.Ref)
				if err != nil {
					return nil, err
				}
				for _, ref := range refs {
					if s := (grant.Source{Kind: grant.KindPaper, Ref: ref}); !allowed[s] {
						allow(s)
					}
				}
			}
		}
	}
	// A paper pointed at without a selection still gets a card: its ref,
	// title and where it opens — never its abstract.
	if current != nil && !selected[current.Ref] {
		p.Evidence = append([]Card{paperCard(*current)}, p.Evidence...)
	}
	for _, c := range mentioned {
		if !selected[c.Ref] {
			p.Evidence = append(p.Evidence, c)
		}
	}

	for s := range allowed {
		p.Allowed = append(p.Allowed, s)
	}
	sortSources(p.Allowed)
	switch {
	case req.Remote, len(p.Allowed) == 0:
		p.Mode = grant.ModePromptOnly
	default:
		p.Mode = grant.ModeMCP
		p.Tools = SessionTools(r.Vault, r.WriteDocs)
	}
	p.Fingerprint = Fingerprint(p.Tools, p.Allowed, p.Budget, p.Mode)
	return p, nil
}

func (p *Plan) refuse(kind, where string, err error) {
	p.Refused = append(p.Refused, Refusal{Kind: kind, Path: where, Reason: err.Error()})
}

var kindOrder = map[string]int{grant.KindPaper: 0, grant.KindDirectory: 1, grant.KindFile: 2}

func sortSources(s []grant.Source) {
	sort.Slice(s, func(i, j int) bool {
		if s[i].Kind != s[j].Kind {
			return kindOrder[s[i].Kind] < kindOrder[s[j].Kind]
		}
		return s[i].Ref < s[j].Ref
	})
}

// Fingerprint hashes what a turn may do — tools, allowed sources, budget and
// mode — and nothing else: editing a quote does not change it, adding a
// source does.
func Fingerprint(tools []string, allowed []grant.Source, b grant.Budget, mode string) string {
	srcs := append([]grant.Source(nil), allowed...)
	sortSources(srcs)
	ts := append([]string(nil), tools...)
	sort.Strings(ts)
	data, _ := json.Marshal(struct {
		Tools   []string       `json:"tools"`
		Allowed []grant.Source `json:"allowed"`
		Budget  grant.Budget   `json:"budget"`
		Mode    string         `json:"mode"`
	}{ts, srcs, b, mode})
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

var (
	errNotPaper = errors.New("not a paper of this vault")
	errNotFound = errors.New("not found in the vault")
	errNotDir   = errors.New("not a folder")
	errNotFile  = errors.New("not a file")
	errBadKind  = errors.New(`kind must be "paper", "directory", "file" or "vault"`)
	errNotPlain = errors.New("not a plain path inside the vault")
	errEmptySel = errors.New("the selection has no text")
)

// clean checks a path the UI sent: a plain vault path that exists and does
// not leave the vault through a symlink.
func (r *Resolver) clean(raw string) (string, os.FileInfo, error) {
	ref, err := grant.CleanRef(raw)
	if err != nil {
		return "", nil, errNotPlain
	}
	abs, err := vault.Resolve(r.Vault, ref)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil, errNotFound
		}
		return "", nil, errNotPlain
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", nil, errNotFound
	}
	return ref, st, nil
}

// paper finds the indexed paper named by a paper ref or by its PDF's path.
func (r *Resolver) paper(ctx context.Context, raw string) (index.Paper, error) {
	ref, st, err := r.clean(raw)
	if err != nil {
		return index.Paper{}, err
	}
	if !st.IsDir() {
		ref = path.Dir(ref)
	}
	p, err := r.Papers.Paper(ctx, ref)
	if err != nil {
		return index.Paper{}, errNotPaper
	}
	if !st.IsDir() && p.PDFPath != strings.TrimPrefix(raw, "./") {
		return index.Paper{}, errNotPaper
	}
	return p, nil
}

func paperCard(p index.Paper) Card {
	return Card{Kind: grant.KindPaper, Ref: p.Ref, Title: p.Title, CitationURI: citation.New(p.PDFPath, 0, "").String()}
}

func (r *Resolver) selection(ctx context.Context, sel Selection) (Card, grant.Source, error) {
	text := strings.TrimSpace(sel.Text)
	if text == "" {
		return Card{}, grant.Source{}, errEmptySel
	}
	quote, cut := cutQuote(text)
	ref, st, err := r.clean(sel.SourcePath)
	if err != nil {
		return Card{}, grant.Source{}, err
	}
	if st.IsDir() {
		return Card{}, grant.Source{}, errNotFile
	}
	if p, err := r.paper(ctx, ref); err == nil {
		if sel.Page < 0 || sel.Page > p.Pages {
			return Card{}, grant.Source{}, fmt.Errorf("page %d is not in this paper (%d pages)", sel.Page, p.Pages)
		}
		c := Card{Kind: grant.KindPaper, Ref: p.Ref, Title: p.Title, Page: sel.Page, Quote: quote, Cut: cut,
			CitationURI: citation.New(p.PDFPath, sel.Page, "").String()}
		if f, ok := r.Papers.(sectionFinder); ok && sel.Page > 0 {
			// the section names where the passage is; an index that cannot
			// say leaves it out and the card stands without it
			c.Section, _ = f.SectionOf(ctx, p.Ref, sel.Page, text)
		}
		return c, grant.Source{Kind: grant.KindPaper, Ref: p.Ref}, nil
	}
	if strings.EqualFold(path.Ext(ref), ".pdf") {
		return Card{}, grant.Source{}, errNotPaper
	}
	c := Card{Kind: grant.KindFile, Ref: ref, Title: path.Base(ref), Quote: quote, Cut: cut, CitationURI: citation.New(ref, 0, "").String()}
	return c, grant.Source{Kind: grant.KindFile, Ref: ref}, nil
}

func (r *Resolver) mention(ctx context.Context, m Mention) (*Card, grant.Source, error) {
	switch m.Kind {
	case grant.KindPaper:
		p, err := r.paper(ctx, m.Path)
		if err != nil {
			return nil, grant.Source{}, err
		}
		c := paperCard(p)
		return &c, grant.Source{Kind: grant.KindPaper, Ref: p.Ref}, nil
	case grant.KindDirectory:
		ref, st, err := r.clean(m.Path)
		if err != nil {
			return nil, grant.Source{}, err
		}
		if !st.IsDir() {
			return nil, grant.Source{}, errNotDir
		}
		if p, err := r.Papers.Paper(ctx, ref); err == nil { // a paper folder mentioned as a folder
			c := paperCard(p)
			return &c, grant.Source{Kind: grant.KindPaper, Ref: p.Ref}, nil
		}
		return nil, grant.Source{Kind: grant.KindDirectory, Ref: ref}, nil
	case grant.KindFile:
		ref, st, err := r.clean(m.Path)
		if err != nil {
			return nil, grant.Source{}, err
		}
		if st.IsDir() || !st.Mode().IsRegular() {
			return nil, grant.Source{}, errNotFile
		}
		if p, err := r.paper(ctx, ref); err == nil { // a paper's PDF mentioned as a file
			c := paperCard(p)
			return &c, grant.Source{Kind: grant.KindPaper, Ref: p.Ref}, nil
		}
		return nil, grant.Source{Kind: grant.KindFile, Ref: ref}, nil
	}
	return nil, grant.Source{}, errBadKind
}

// cutQuote keeps at most MaxQuoteChars characters of a quote, cutting at a
// word boundary when one is near, and reports whether it cut.
func cutQuote(s string) (string, bool) {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= MaxQuoteChars {
		return s, false
	}
	runes := []rune(s)
	cut := string(runes[:MaxQuoteChars])
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)-80 && i > 0 {
		cut = cut[:i]
	}
	return cut, true
}

// Grant is the grant.json of a plan for one runtime id.
func (p *Plan) Grant(vaultRoot, runtimeID string, now time.Time) grant.Grant {
	return grant.Grant{Version: grant.Version, Vault: vaultRoot, RuntimeID: runtimeID, CreatedAt: now.UTC(),
		Mode: p.Mode, Fingerprint: p.Fingerprint, Tools: p.Tools, Allowed: p.Allowed, Budget: p.Budget}
}

// KindVault is the mention of the whole vault (@vault): for that turn, every
// folder at the vault's top (its hidden ones aside) is granted as a folder,
// so every paper and text file in them, and every text file at the top
// (AGENTS.md, README.md, notes) as a file. Hidden names and links are left
// out, and with them .agentero and anything a link reaches.
const KindVault = "vault"

// expandVault replaces a mention of the whole vault with its top folders
// and text files.
func (r *Resolver) expandVault(ms []Mention) []Mention {
	out := make([]Mention, 0, len(ms))
	for _, m := range ms {
		if m.Kind != KindVault {
			out = append(out, m)
			continue
		}
		entries, err := os.ReadDir(r.Vault)
		if err != nil {
			out = append(out, Mention{Kind: grant.KindDirectory, Path: "."}) // refused, with its reason
			continue
		}
		for _, e := range entries {
			switch {
			case strings.HasPrefix(e.Name(), "."):
			case e.IsDir():
				out = append(out, Mention{Kind: grant.KindDirectory, Path: e.Name()})
			case e.Type().IsRegular() && vault.IsTextName(e.Name()):
				out = append(out, Mention{Kind: grant.KindFile, Path: e.Name()})
			}
		}
	}
	return out
}
