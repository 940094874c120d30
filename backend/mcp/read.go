package mcp

// context_read: what a ref names decides what is read, and how.

import (
	"context"
	"encoding/json"
	"strconv"
)

// Read modes.
const (
	modeMetadata = "metadata"
	modeExcerpt  = "excerpt"
	modePage     = "page"
	modeSection  = "section"
	modeRegion   = "region"
	modeFull     = "full"
)

type readInput struct {
	Ref     string `json:"ref"`
	Mode    string `json:"mode"`
	Page    *int   `json:"page"`
	Section string `json:"section"`
	Region  *Rect  `json:"region"`
	Quote   string `json:"quote"`
	Cursor  string `json:"cursor"`
}

// cutInfo is how every cut result says so and how to continue: which part
// it is, what remains unread, and the very call that reads on.
type cutInfo struct {
	Truncated  bool      `json:"truncated"`
	Part       string    `json:"part,omitempty"`       // which part this is: "page 3 of 17, chars 1–40000 of 43500"
	Remaining  string    `json:"remaining,omitempty"`  // what is left unread: "pages 12–17 of 17 (23456 characters)"
	NextCursor string    `json:"nextCursor,omitempty"` // pass with the same arguments to continue
	Next       *nextCall `json:"next,omitempty"`       // the call that reads on, to make as is
	Note       string    `json:"note,omitempty"`
}

// nextCall is a tool call an agent can make as it is written: how a cut
// result continues.
type nextCall struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
}

// readCall is a context_read call (read, on the whole-vault server).
func (s *Server) readCall(args map[string]any) *nextCall {
	return &nextCall{Tool: s.toolName("context_read"), Arguments: args}
}

// toolName is a tool's name on this server: the whole-vault server names
// agentero-context's tools without their prefix.
func (s *Server) toolName(name string) string {
	if s.perRequest {
		return vaultToolNames.Replace(name)
	}
	return name
}

func (s *Server) read(ctx context.Context, args json.RawMessage, room int) (reply, error) {
	var in readInput
	if err := decode(args, &in); err != nil {
		return reply{}, err
	}
	switch {
	case in.Ref == "" || len(in.Ref) > maxRef:
		return reply{}, errorf("ref must be a path of at most %d bytes", maxRef)
	case len(in.Quote) > maxQuote:
		return reply{}, errorf("quote must be at most %d characters", maxQuote)
	case len(in.Section) > maxSection:
		return reply{}, errorf("section must be at most %d characters", maxSection)
	case in.Page != nil && (*in.Page < 1 || *in.Page > maxPage):
		return reply{}, errorf("page must be a physical page number, 1 or more")
	}
	switch in.Mode {
	case "", modeMetadata, modeExcerpt, modePage, modeSection, modeRegion, modeImage, modeFull:
	default:
		return reply{}, errorf("unknown mode: use metadata, excerpt, page, section, region, image or full")
	}
	t, err := s.resolve(ctx, in.Ref)
	if err != nil {
		return reply{}, err
	}
	if in.Page == nil && t.loc.Page != 0 {
		in.Page = &t.loc.Page
	}
	if in.Quote == "" {
		in.Quote = t.loc.Quote
	}
	// A citation URI says what to read when the mode does not.
	if in.Mode == "" && t.kind == paperTarget {
		switch {
		case in.Quote != "":
			in.Mode = modeExcerpt
		case in.Page != nil:
			in.Mode = modePage
		default:
			in.Mode = modeMetadata
		}
	}
	// The room a text may fill: the cap, or what is left of the turn less
	// reserve, what the JSON around the text (ref, citation, part, the next
	// call, the note) takes at most. Texts are cut by their size in JSON,
	// so a read cut to the budget takes what is left of it.
	reserve := 1200 + 3*runeCount(in.Ref)
	fit := func(limit int) (int, string) {
		if r := room - reserve; r < limit {
			return max(r, 100), s.budgetCut()
		}
		return limit, ""
	}
	b := s.grant.Budget
	switch t.kind {
	case dirTarget:
		if in.Mode != "" && in.Mode != modeMetadata {
			return reply{}, errorf("a directory can only be listed: read it without a mode")
		}
		return s.list(t, in.Cursor, b.DirEntries, room-reserve)
	case fileTarget:
		return s.readFile(ctx, t, in, fit)
	}
	switch in.Mode {
	case modeMetadata:
		n, _ := fit(b.FullChars)
		return s.metadata(ctx, t, n)
	case modeExcerpt:
		return s.excerpt(ctx, t, in, fit)
	case modePage:
		return s.page(ctx, t, in, fit)
	case modeSection:
		return s.section(ctx, t, in, fit)
	case modeRegion:
		return s.region(ctx, t, in, fit)
	case modeImage:
		return s.image(ctx, t, in, room)
	default:
		return s.full(ctx, t, in, fit)
	}
}

// fitFunc gives the characters a text may take under a cap, and a note when
// the turn's budget, not the cap, is what limits it.
type fitFunc func(limit int) (int, string)

func size(v any) int {
	s, _ := marshal(v)
	return runeCount(s)
}

type textResult struct {
	Ref         string `json:"ref"`
	Path        string `json:"path,omitempty"`
	Page        int    `json:"page,omitempty"`
	PageLabel   string `json:"pageLabel,omitempty"`
	Pages       int    `json:"pages,omitempty"` // the paper's page count
	Section     string `json:"section,omitempty"`
	Matches     int    `json:"matches,omitempty"` // pages that hold the quote (1 for a file)
	Line        int    `json:"line,omitempty"`    // line of a quote in a file
	Text        string `json:"text"`
	CitationURI string `json:"citationUri"`
	cutInfo
}

// pageLabel is the printed number of a page: its PDF label, or, for a PDF
// without labels, its physical number.
func pageLabel(label string, page int) string {
	if label == "" {
		return strconv.Itoa(page)
	}
	return label
}

// cutOf describes a chunk: whole, or cut with the part returned, what
// remains, and the call that reads on (call with the cursor added).
func cutOf(c chunk, what, remaining, key, note string, call func(cursor string) *nextCall) cutInfo {
	if c.whole() {
		return cutInfo{Part: what}
	}
	part := c.chars()
	if what != "" {
		part = what + ", " + part
	}
	ci := cutInfo{Truncated: true, Part: part, Note: note}
	if c.to < c.total {
		ci.NextCursor = makeCursor(key, c.to)
		ci.Remaining = remaining
		ci.Next = call(ci.NextCursor)
	}
	return ci
}

func joinNote(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}
