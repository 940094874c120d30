// Package mcp is the per-turn agentero-context MCP server (SPEC §4): it
// serves read-only tools over the sources one grant allows, and refuses
// everything else.
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/context/docs"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/refs"
)

// Name is the server name clients see.
const Name = "agentero-context"

// Serve runs the server for the grant at grantPath over in/out until the
// client disconnects or ctx ends. A missing or malformed grant is an error
// before anything is served.
func Serve(ctx context.Context, grantPath string, in io.Reader, out io.Writer, log *slog.Logger) error {
	g, err := grant.Load(grantPath)
	if err != nil {
		return err
	}
	if g.Mode != grant.ModeMCP {
		return fmt.Errorf("grant file %s is for a %s turn: it grants nothing to serve", grantPath, g.Mode)
	}
	ip := index.Path(g.Vault)
	if _, err := os.Stat(ip); err != nil {
		return fmt.Errorf("the vault %s has no index yet: open it in Agentero or run agentero index", g.Vault)
	}
	db, err := index.Open(ip, index.Options{ReadOnly: true, Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		return err
	}
	defer db.Close()
	ex := pdf.NewExtractor(pdf.Options{Workers: 1, Logger: log})
	defer ex.Close()
	s := NewServer(g, db, log, Options{UsagePath: grant.UsagePath(g.Vault, g.RuntimeID), GrantPath: grantPath, Regions: pdfRegions{ex}})
	defer s.Close()
	err = s.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopCloser{out}})
	if ctx.Err() != nil || errors.Is(err, io.EOF) {
		return nil // interrupted, or the client hung up: both end a turn normally
	}
	return err
}

// pdfRegions reads rectangles of pages with the PDF extractor, in a worker
// process under its time limit; the worker starts on the first region read.
type pdfRegions struct{ ex *pdf.Extractor }

func (r pdfRegions) ReadRegion(ctx context.Context, f *os.File, page int, rect Rect) (string, error) {
	return r.ex.RegionFile(ctx, f, page, pdf.Rect{X: rect.X, Y: rect.Y, Width: rect.Width, Height: rect.Height})
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Options tunes NewServer; the zero value means defaults.
type Options struct {
	UsagePath string // where returned citation URIs are appended; "" keeps none
	// GrantPath is the grant file the server follows: every call reads the
	// grant's turn from it, and each turn's budget is kept in a ledger
	// beside it, shared by every server process of the grant. "" counts
	// one turn, in memory, for as long as the server runs.
	GrantPath string
	Regions   RegionReader     // reads rectangles of pages; nil says region reads are not available
	Now       func() time.Time // the clock of usage lines
	Version   string           // reported to clients
}

// Server serves one grant. Tool calls may run in parallel: the meter (in
// memory, or a turn's ledger file) and the usage log order their own
// writers, and everything else is read only.
type Server struct {
	grant     *grant.Grant
	grantPath string // followed for the turn (Options.GrantPath)
	db        *index.DB
	log       *slog.Logger
	regions   RegionReader
	meter     *memMeter // the one turn of a server that follows no grant file
	usage     *usageLog
	mcp       *sdk.Server
	docs      *docs.Catalog // the vault's context documents; nil when it has none

	perRequest bool // the budget's turnChars caps each call (NewVaultServer)
}

// NewServer builds the server of grant g over the vault's index. It offers
// the tools the grant names (all three when it names none).
func NewServer(g *grant.Grant, db *index.DB, log *slog.Logger, opts Options) *Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Regions == nil {
		opts.Regions = noRegions{}
	}
	if opts.Version == "" {
		opts.Version = "1"
	}
	s := &Server{
		grant:     g,
		grantPath: opts.GrantPath,
		db:        db,
		log:       log,
		regions:   opts.Regions,
		meter:     &memMeter{limit: g.Budget.TurnChars},
		usage:     &usageLog{path: opts.UsagePath, now: opts.Now},
	}
	// The SDK's own log is left out: it reports a client hanging up or an
	// interrupt as errors, which they are not here.
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: Name, Version: opts.Version}, &sdk.ServerOptions{
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
	})
	for _, t := range tools() {
		if len(g.Tools) == 0 || slices.Contains(g.Tools, t.tool.Name) {
			s.mcp.AddTool(t.tool, s.handle(t.tool.Name, t.run))
		}
	}
	// Context documents add small read tools where they exist; the
	// session's own tools (history, skills) come when the grant names them.
	// A grant naming tools gets exactly those: what the session can call is
	// what its grant and fingerprint say.
	named := func(name string) bool { return len(g.Tools) == 0 || slices.Contains(g.Tools, name) }
	if cat, err := docs.Scan(g.Vault); err != nil {
		log.Warn("context documents unavailable", "err", err)
	} else if cat.Len() > 0 {
		s.docs = cat
		for _, t := range docTools() {
			if named(t.tool.Name) {
				s.mcp.AddTool(t.tool, s.handle(t.tool.Name, t.run))
			}
		}
	}
	for _, t := range sessionTools() {
		if len(g.Tools) > 0 && slices.Contains(g.Tools, t.tool.Name) {
			s.mcp.AddTool(t.tool, s.handle(t.tool.Name, t.run))
		}
	}
	return s
}

// Run serves over t until the client disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.mcp.Run(ctx, t)
}

// Connect serves one session over t and returns at once (for in-process use).
func (s *Server) Connect(ctx context.Context, t sdk.Transport) (*sdk.ServerSession, error) {
	return s.mcp.Connect(ctx, t, nil)
}

// Close releases the usage log.
func (s *Server) Close() error { return s.usage.Close() }

// reply is what a tool returns: a value to send as JSON and the locations
// in it, which go to usage.jsonl once the reply is sent.
type reply struct {
	value any
	cites []cite
	// image is a PNG sent before the JSON (context_read mode image), and
	// imageCost what it takes from the budget beside the JSON's characters.
	image     []byte
	imageCost int
}

// cite is one citation URI a reply carries, with the ref it belongs to.
type cite struct {
	ref, uri string
}

// toolFunc runs one tool call. room is what is left of the turn's budget;
// replies are cut to fit it.
type toolFunc func(s *Server, ctx context.Context, args json.RawMessage, room int) (reply, error)

// userError is an error whose text the agent sees as is. Every other error
// becomes a short generic message, and a log line for us.
type userError struct{ msg string }

func (e userError) Error() string { return e.msg }

func errorf(format string, a ...any) error { return userError{fmt.Sprintf(format, a...)} }

// errSpent is returned once the budget is spent: how much was read, and
// what the agent should do now.
func (s *Server) errSpent(t tally) error {
	if s.perRequest {
		return errorf("this result is larger than one request may return (%d characters): ask for less", s.grant.Budget.TurnChars)
	}
	return errorf("this turn's reading budget is spent: its %d results held %d of the %d characters a turn may read. "+
		"Answer with what you have read and say what is left unread; reading more needs a new turn "+
		"(the user can raise the budget in Settings, Reading budget)", t.calls, t.used, s.grant.Budget.TurnChars)
}

// errNoRoom is a tool's word that nothing it found fits in the room left.
var errNoRoom = errors.New("no room left in the budget")

// budgetCut is the note of a result cut to what is left of the budget.
func (s *Server) budgetCut() string {
	if s.perRequest {
		return "cut to this request's budget: make the next call to read on"
	}
	return fmt.Sprintf("cut to what is left of this turn's budget (%d characters of reading): "+
		"the rest needs a new turn, where the next call reads on (the user can raise the budget in Settings, Reading budget)",
		s.grant.Budget.TurnChars)
}

// Refusals of a server that follows its grant file.
var (
	errNoTurn       = userError{"no turn is open: agentero-context reads only while a turn of its conversation runs"}
	errGrantGone    = userError{"this session's grant is gone (its conversation was deleted or moved to a new session): nothing can be read"}
	errGrantChanged = userError{"this session's grant has changed: what it may read is now another session's"}
)

// turnMeter is the meter of the turn a call belongs to. A server that
// follows its grant file reads the grant again on every call: the host
// writes it with a fresh turn at the start of each turn and closes the
// turn at its end, so a server kept across turns charges each turn's
// calls to that turn's own ledger.
func (s *Server) turnMeter() (meter, error) {
	switch {
	case s.perRequest:
		return &memMeter{limit: s.grant.Budget.TurnChars}, nil
	case s.grantPath == "":
		return s.meter, nil
	}
	g, err := grant.Load(s.grantPath)
	switch {
	case err != nil:
		s.log.Warn("the grant is not readable", "err", err)
		return nil, errGrantGone
	case g.Fingerprint != s.grant.Fingerprint || g.Budget != s.grant.Budget:
		return nil, errGrantChanged
	case g.Turn == "":
		return nil, errNoTurn
	}
	return ledger{path: ledgerPath(g, g.Turn), limit: s.grant.Budget.TurnChars}, nil
}

// minRoom is the least budget a call needs to return anything useful.
const minRoom = 200

// handle wraps a tool: it turns errors into tool errors (isError results,
// never protocol failures), charges the turn's budget and records usage.
func (s *Server) handle(name string, run toolFunc) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("tool panicked", "tool", name, "panic", p)
				res, err = failure(errors.New("internal error")), nil
			}
		}()
		m, err := s.turnMeter()
		if err != nil {
			return s.failure(name, err), nil
		}
		// Two attempts: a parallel call may take the room this one measured.
		for attempt := 0; attempt < 2; attempt++ {
			t, err := m.tally()
			if err != nil {
				return s.failure(name, err), nil
			}
			room := s.grant.Budget.TurnChars - t.used
			if room < minRoom {
				return failure(s.errSpent(t)), nil
			}
			r, err := run(s, ctx, req.Params.Arguments, room)
			if errors.Is(err, errNoRoom) {
				return failure(s.errSpent(t)), nil
			}
			if err != nil {
				return s.failure(name, err), nil
			}
			text, err := marshal(r.value)
			if err != nil {
				return s.failure(name, err), nil
			}
			taken, err := m.charge(name, runeCount(text)+r.imageCost)
			if err != nil {
				return s.failure(name, err), nil
			}
			if !taken {
				continue
			}
			if err := s.usage.record(name, r.cites); err != nil {
				s.log.Error("record usage", "err", err)
			}
			content := []sdk.Content{&sdk.TextContent{Text: text}}
			if r.image != nil {
				content = append([]sdk.Content{&sdk.ImageContent{Data: r.image, MIMEType: "image/png"}}, content...)
			}
			return &sdk.CallToolResult{Content: content, StructuredContent: json.RawMessage(text)}, nil
		}
		t, err := m.tally()
		if err != nil {
			return s.failure(name, err), nil
		}
		return failure(s.errSpent(t)), nil
	}
}

func (s *Server) failure(tool string, err error) *sdk.CallToolResult {
	var ue userError
	switch {
	case errors.Is(err, grant.ErrRefused) && s.perRequest:
		return failure(ErrVaultRefused)
	case errors.Is(err, grant.ErrRefused):
		return failure(grant.ErrRefused)
	case errors.As(err, &ue) && s.perRequest:
		return failure(userError{vaultToolNames.Replace(ue.msg)})
	case errors.As(err, &ue):
		return failure(ue)
	case errors.Is(err, errLedger):
		s.log.Error("turn budget", "tool", tool, "err", err)
		return failure(errors.New("this turn's reading budget cannot be counted (its ledger is not readable): nothing more can be read in this turn"))
	case errors.Is(err, ErrRegionUnavailable):
		return failure(ErrRegionUnavailable)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return failure(errors.New("the call was cancelled"))
	default:
		s.log.Error("tool failed", "tool", tool, "err", err)
		return failure(errors.New("internal error: the index could not be read; try again or ask the user to re-index the vault"))
	}
}

func failure(err error) *sdk.CallToolResult {
	r := &sdk.CallToolResult{}
	r.SetError(err)
	return r
}
