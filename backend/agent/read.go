package agent

// The agent's reads through agentero-context, within the turn's budget.

import (
	"context"
	"fmt"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/grant"

	sdk "github.com/coder/acp-go-sdk"
)

// card is what the agent uses of a context_search card.
type card struct {
	Ref         string `json:"ref"`
	Path        string `json:"path"`
	Title       string `json:"title"`
	Page        int    `json:"page"`
	PageLabel   string `json:"pageLabel"`
	Snippet     string `json:"snippet"`
	CitationURI string `json:"citationUri"`
	// A figure card (a figure or table the question names or whose
	// caption it matches) has its kind and its region of the page.
	Kind   string           `json:"kind"`
	Label  string           `json:"label"`
	Region *citation.Region `json:"region"`
}

// cites is the citation the card's page is quoted with: a figure card's
// names the figure's region, so that the source outlines it.
func (c card) cites() string {
	if c.Kind == "" || c.Region == nil {
		return c.CitationURI
	}
	u, err := citation.Parse(c.CitationURI)
	if err != nil || !u.Region.IsZero() {
		return c.CitationURI
	}
	return u.WithRegion(*c.Region).String()
}

type searchResult struct {
	Cards      []card `json:"cards"`
	Omitted    int    `json:"omitted"`
	NextCursor string `json:"nextCursor"`
}

// pageText is a context_read of one page, or of a text file.
type pageText struct {
	Ref         string `json:"ref"`
	Page        int    `json:"page"`
	PageLabel   string `json:"pageLabel"`
	Pages       int    `json:"pages"`
	Text        string `json:"text"`
	CitationURI string `json:"citationUri"`
	Truncated   bool   `json:"truncated"`
}

// paperInfo is what the agent uses of a context_read in mode metadata.
type paperInfo struct {
	Ref    string `json:"ref"`
	Title  string `json:"title"`
	Pages  int    `json:"pages"`
	Health struct {
		Status      string `json:"status"`
		NoTextPages int    `json:"noTextPages"`
	} `json:"health"`
}

// defaultTurnChars is the turn's budget when the prompt states none: the
// grant's own default, so that the agent never counts against less than
// the server allows.
var defaultTurnChars = grant.DefaultBudget().TurnChars

// Budget defaults, when the prompt states none.
const (
	defaultSearchCards = 8
	// pageCost is what a page read is taken to cost before one is seen.
	pageCost = 6000
	// reserve is kept back from page reads for the checks after them.
	reserve = 3000
)

// reader makes the agent's tool calls of one turn, reports each one to the
// client as a tool call, and counts what they cost against the turn's
// budget. It is used by one goroutine.
type reader struct {
	a     *Agent
	sid   sdk.SessionId
	tools *tools
	room  int // characters left of the turn's budget, by the agent's count
	cost  int // the dearest page read so far
	calls int
	pages map[string]*pageText // by ref and page
}

func newReader(a *Agent, sid sdk.SessionId, t *tools, turnChars int) *reader {
	if turnChars <= 0 {
		turnChars = defaultTurnChars
	}
	return &reader{a: a, sid: sid, tools: t, room: turnChars, cost: pageCost, pages: map[string]*pageText{}}
}

// call runs one tool as a reported tool call.
func (r *reader) call(ctx context.Context, kind sdk.ToolKind, title, name string, args map[string]any, out any) error {
	r.calls++
	id := fmt.Sprintf("call-%d", r.calls)
	r.a.toolStart(ctx, r.sid, id, title, kind, args)
	n, err := r.tools.call(ctx, name, args, out)
	r.room -= n
	r.a.toolDone(ctx, r.sid, id, err)
	return err
}

func (r *reader) search(ctx context.Context, query string, limit int, cursor string) (searchResult, error) {
	args := map[string]any{"query": query, "limit": limit}
	if cursor != "" {
		args["cursor"] = cursor
	}
	var res searchResult
	err := r.call(ctx, sdk.ToolKindSearch, "context_search: "+query, "context_search", args, &res)
	return res, err
}

// canRead reports whether the budget leaves room for another page.
func (r *reader) canRead() bool { return r.room-reserve >= r.cost }

// page reads one page of a paper, once a turn.
func (r *reader) page(ctx context.Context, ref string, n int) (*pageText, error) {
	key := fmt.Sprintf("%s#%d", ref, n)
	if p, ok := r.pages[key]; ok {
		return p, nil
	}
	var p pageText
	before := r.room
	err := r.call(ctx, sdk.ToolKindRead, fmt.Sprintf("context_read: %s, page %d", ref, n), "context_read",
		map[string]any{"ref": ref, "mode": "page", "page": n}, &p)
	if err != nil {
		return nil, err
	}
	r.cost = max(r.cost, before-r.room)
	r.pages[key] = &p
	return &p, nil
}

// file reads a text file, once a turn.
func (r *reader) file(ctx context.Context, path string) (*pageText, error) {
	if p, ok := r.pages[path]; ok {
		return p, nil
	}
	var p pageText
	before := r.room
	if err := r.call(ctx, sdk.ToolKindRead, "context_read: "+path, "context_read", map[string]any{"ref": path}, &p); err != nil {
		return nil, err
	}
	r.cost = max(r.cost, before-r.room)
	r.pages[path] = &p
	return &p, nil
}

func (r *reader) metadata(ctx context.Context, ref string) (paperInfo, error) {
	var info paperInfo
	err := r.call(ctx, sdk.ToolKindRead, "context_read: "+ref, "context_read", map[string]any{"ref": ref, "mode": "metadata"}, &info)
	return info, err
}
