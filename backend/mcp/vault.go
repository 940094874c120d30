package mcp

// The whole-vault server (SPEC §9): the same tools, cards, citation URIs,
// cursors and refusals as agentero-context, over a different grant
// (grant.WholeVault: every path of the vault but .agentero and hidden
// names), with the budget applied per request instead of per turn.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/refs"
)

// OpenVault opens the index of the vault at dir read-only and builds its
// whole-vault server, with region reads by a PDF worker. closeFn releases
// them. A vault without an index is an error that says how to make one.
func OpenVault(dir string, log *slog.Logger, version string, b grant.Budget) (s *Server, closeFn func(), err error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return nil, nil, fmt.Errorf("%s is not a folder", dir)
	}
	ip := index.Path(root)
	if _, err := os.Stat(ip); err != nil {
		return nil, nil, fmt.Errorf("the vault %s has no index yet: open it in Agentero or run agentero index", root)
	}
	db, err := index.Open(ip, index.Options{ReadOnly: true, Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		return nil, nil, err
	}
	ex := pdf.NewExtractor(pdf.Options{Workers: 1, Logger: log})
	s = NewVaultServer(root, db, log, Options{Regions: pdfRegions{ex}, Version: version}, b)
	return s, func() { s.Close(); ex.Close(); db.Close() }, nil
}

// ServeVault serves the whole vault at dir over in/out (stdio) until the
// client disconnects or ctx ends.
func ServeVault(ctx context.Context, dir string, in io.Reader, out io.Writer, log *slog.Logger, version string, b grant.Budget) error {
	s, closeFn, err := OpenVault(dir, log, version, b)
	if err != nil {
		return err
	}
	defer closeFn()
	err = s.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopCloser{out}})
	if ctx.Err() != nil || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// ErrVaultRefused is the whole-vault server's one refusal: like
// grant.ErrRefused, it names no path.
var ErrVaultRefused = errors.New("refused: that path is not readable; only the vault's papers and text files can be read (not .agentero, hidden names or anything outside the vault)")

// vaultToolNames renames agentero-context's tools in the errors they share
// with the whole-vault server.
var vaultToolNames = strings.NewReplacer("context_search", "search", "context_read", "read", "paper_relations", "relations")

// VaultName is the server name the user's own clients see.
const VaultName = "agentero"

// VaultBudget is what one request of the whole-vault server may return
// when the user set no budget: the per-turn defaults, each request capped
// as NewVaultServer caps it.
func VaultBudget() grant.Budget { return grant.DefaultBudget() }

// requestSlack is what the JSON around the longest text of a result takes
// at most (NewVaultServer).
const requestSlack = 5000

// NewVaultServer builds the read-only server of the whole vault at root
// over its index db, with the user's budget b (a zero or invalid budget is
// VaultBudget). Its turnChars caps each request, and so does fullChars
// with the JSON around it: one result stays as small as one full read,
// under the result limit some MCP clients enforce (grant.DefaultBudget).
// Its tools are vaultTools; nothing is logged to a usage file (there is no
// turn to split sources for).
func NewVaultServer(root string, db *index.DB, log *slog.Logger, opts Options, b grant.Budget) *Server {
	if opts.Regions == nil {
		opts.Regions = noRegions{}
	}
	if opts.Version == "" {
		opts.Version = "1"
	}
	if b.Valid() != nil {
		b = VaultBudget()
	}
	b.TurnChars = min(b.TurnChars, b.FullChars+requestSlack)
	s := &Server{
		grant:      grant.WholeVault(root, b),
		db:         db,
		log:        log,
		regions:    opts.Regions,
		meter:      &memMeter{limit: b.TurnChars},
		usage:      &usageLog{},
		perRequest: true,
	}
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: VaultName, Version: opts.Version}, &sdk.ServerOptions{
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
		Instructions: "Read-only access to the user's paper vault. Cite with the citationUri values the tools return.",
	})
	for _, t := range vaultTools() {
		s.mcp.AddTool(t.tool, s.handle(t.tool.Name, t.run))
	}
	return s
}

// PDFRegions reads regions of pages with ex, in its worker processes.
func PDFRegions(ex *pdf.Extractor) RegionReader { return pdfRegions{ex} }

// MCP is the SDK server, for transports that serve many sessions (the
// streamable HTTP handler).
func (s *Server) MCP() *sdk.Server { return s.mcp }

// vaultTools are the whole-vault tools: short descriptions, compact
// schemas (every client sends them with every request).
func vaultTools() []toolDef {
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
	return []toolDef{
		{&sdk.Tool{
			Name:        "list_papers",
			Description: "List the vault's papers (ref, title, authors, year, tags), filtered by folder, years, author or tag.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{
				"folder":{"type":"string","maxLength":1024},
				"yearFrom":{"type":"integer","minimum":1},
				"yearTo":{"type":"integer","minimum":1},
				"author":{"type":"string","maxLength":200},
				"tag":{"type":"string","maxLength":200},
				"limit":{"type":"integer","minimum":1,"maximum":50},
				"cursor":{"type":"string","maxLength":200}}}`),
			Annotations: ro,
		}, (*Server).listPapers},
		{&sdk.Tool{
			Name:        "search",
			Description: "Search every page and note of the vault. Returns short cards (ref, page, snippet, citationUri); figure cards (kind, label, region, open: the read call that shows it) for a figure or table the query names or whose caption it matches.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["query"],"properties":{
				"query":{"type":"string","minLength":1,"maxLength":500},
				"limit":{"type":"integer","minimum":1,"maximum":50},
				"cursor":{"type":"string","maxLength":200}}}`),
			Annotations: ro,
		}, (*Server).search},
		{&sdk.Tool{
			Name:        "read",
			Description: "Read a paper (ref or citationUri; mode metadata, excerpt+quote, page, section, region, image: a PNG of page or region, for figures, tables, equations, scans; full), a text file, or a folder (\".\" is the vault). Cut results give nextCursor.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["ref"],"properties":{
				"ref":{"type":"string","minLength":1,"maxLength":1024},
				"mode":{"type":"string","enum":["metadata","excerpt","page","section","region","image","full"]},
				"page":{"type":"integer","minimum":1},
				"section":{"type":"string","minLength":1,"maxLength":300},
				"region":{"type":"object","additionalProperties":false,"required":["x","y","width","height"],"description":"PDF points from the top-left","properties":{
					"x":{"type":"number","minimum":0},"y":{"type":"number","minimum":0},
					"width":{"type":"number","exclusiveMinimum":0},"height":{"type":"number","exclusiveMinimum":0}}},
				"quote":{"type":"string","minLength":1,"maxLength":2000},
				"cursor":{"type":"string","maxLength":200}}}`),
			Annotations: ro,
		}, (*Server).vaultRead},
		{&sdk.Tool{
			Name:        "relations",
			Description: "Papers a paper references, that cite it, or that are related (thin cards).",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["ref"],"properties":{
				"ref":{"type":"string","minLength":1,"maxLength":1024},
				"kind":{"type":"string","enum":["references","citedBy","related"]},
				"limit":{"type":"integer","minimum":1,"maximum":50}}}`),
			Annotations: ro,
		}, (*Server).relations},
	}
}

// vaultRead is context_read, and the vault's top folder for ".".
func (s *Server) vaultRead(ctx context.Context, args json.RawMessage, room int) (reply, error) {
	var peek struct {
		Ref    string `json:"ref"`
		Mode   string `json:"mode"`
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(args, &peek)
	if r := strings.TrimSpace(peek.Ref); r != "." && r != "./" {
		return s.read(ctx, args, room)
	}
	var in readInput
	if err := decode(args, &in); err != nil {
		return reply{}, err
	}
	if in.Mode != "" && in.Mode != modeMetadata {
		return reply{}, errorf("a directory can only be listed: read it without a mode")
	}
	abs, err := filepath.EvalSymlinks(s.grant.Vault)
	if err != nil {
		return reply{}, err
	}
	if abs, err = filepath.Abs(abs); err != nil {
		return reply{}, err
	}
	return s.list(target{kind: dirTarget, ref: ".", abs: abs}, in.Cursor, s.grant.Budget.DirEntries, room-600)
}

type listPapersInput struct {
	Folder   string `json:"folder"`
	YearFrom int    `json:"yearFrom"`
	YearTo   int    `json:"yearTo"`
	Author   string `json:"author"`
	Tag      string `json:"tag"`
	Limit    *int   `json:"limit"`
	Cursor   string `json:"cursor"`
}

// paperCard is one paper of list_papers.
type paperCard struct {
	Ref         string   `json:"ref"`
	Title       string   `json:"title"`
	Authors     []string `json:"authors"`
	Year        int      `json:"year,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	Pages       int      `json:"pages"`
	CitationURI string   `json:"citationUri"`
}

type listPapersResult struct {
	Papers     []paperCard `json:"papers"`
	Total      int         `json:"total"` // papers the filters select
	NextCursor string      `json:"nextCursor,omitempty"`
	Note       string      `json:"note,omitempty"`
}

// maxCardAuthors is how many authors a paper card names; more are counted.
const maxCardAuthors = 5

func (s *Server) listPapers(ctx context.Context, args json.RawMessage, room int) (reply, error) {
	var in listPapersInput
	if err := decode(args, &in); err != nil {
		return reply{}, err
	}
	limit, err := limitArg(in.Limit, 20, maxLimit)
	if err != nil {
		return reply{}, err
	}
	switch {
	case len(in.Author) > 200 || len(in.Tag) > 200:
		return reply{}, errorf("author and tag must be at most 200 characters")
	case in.YearFrom < 0 || in.YearTo < 0 || in.YearFrom > 9999 || in.YearTo > 9999:
		return reply{}, errorf("yearFrom and yearTo must be years")
	case in.YearFrom > 0 && in.YearTo > 0 && in.YearFrom > in.YearTo:
		return reply{}, errorf("yearFrom must not be after yearTo")
	}
	folder := ""
	if f := strings.TrimSpace(in.Folder); f != "" && f != "." {
		if len(f) > maxRef {
			return reply{}, errorf("folder must be a path of at most %d bytes", maxRef)
		}
		folder, err = grant.CleanRef(f)
		if err != nil {
			return reply{}, err
		}
	}
	key := cursorKey("papers", folder, fmt.Sprint(in.YearFrom), fmt.Sprint(in.YearTo), in.Author, in.Tag)
	off, err := readCursor(in.Cursor, key)
	if err != nil {
		return reply{}, err
	}
	papers, total, err := s.db.ListPapers(ctx, index.PaperFilter{Folder: folder, YearFrom: in.YearFrom, YearTo: in.YearTo,
		Author: strings.TrimSpace(in.Author), Tag: strings.TrimSpace(in.Tag), Limit: limit, Offset: off})
	if err != nil {
		return reply{}, err
	}
	if off > total {
		return reply{}, errorf("cursor is past the last paper")
	}
	res := listPapersResult{Papers: []paperCard{}, Total: total}
	var cites []cite
	used, next := 0, off
	for _, p := range papers {
		authors := p.Authors
		if len(authors) > maxCardAuthors {
			authors = append(authors[:maxCardAuthors:maxCardAuthors], fmt.Sprintf("and %d more", len(p.Authors)-maxCardAuthors))
		}
		c := paperCard{Ref: p.Ref, Title: p.Title, Authors: authors, Year: p.Year, Tags: p.Tags, Pages: p.Pages, CitationURI: citation.New(p.PDFPath, 0, "").String()}
		n := size(c)
		if used+n > room-300 {
			res.Note = "fewer papers than asked: this request's budget is spent"
			break
		}
		used += n
		next++
		res.Papers = append(res.Papers, c)
		cites = append(cites, cite{p.Ref, c.CitationURI})
	}
	if next < total {
		res.NextCursor = makeCursor(key, next)
	}
	if total == 0 {
		res.Note = "no paper matches these filters"
	}
	return reply{value: res, cites: cites}, nil
}
