package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/context/grant"
)

// imageT is the line of text sent beside an image.
type imageT struct {
	Ref    string `json:"ref"`
	Page   int    `json:"page"`
	Region struct {
		X, Y, Width, Height float64
	} `json:"region"`
	PageSize    [2]float64 `json:"pageSize"`
	Width       int        `json:"width"`
	Height      int        `json:"height"`
	Cost        int        `json:"cost"`
	CitationURI string     `json:"citationUri"`
}

// image calls a read tool in mode image, which must succeed, and returns
// the PNG's width and height, checked against what the text says, and the
// text.
func (s *session) image(tool string, args map[string]any) (w, h int, r imageT, text string) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s %v: protocol error %v\n%s", tool, args, err, s.stderr.String())
	}
	if res.IsError || len(res.Content) != 2 {
		s.t.Fatalf("%s %v: error %v, %d content blocks, want an image and its text: %+v", tool, args, res.IsError, len(res.Content), res.Content)
	}
	img, ok := res.Content[0].(*sdk.ImageContent)
	if !ok {
		s.t.Fatalf("%s: first block is %T, want an image", tool, res.Content[0])
	}
	tc, ok := res.Content[1].(*sdk.TextContent)
	if !ok {
		s.t.Fatalf("%s: second block is %T, want text", tool, res.Content[1])
	}
	if img.MIMEType != "image/png" || !bytes.HasPrefix(img.Data, []byte("\x89PNG\r\n\x1a\n")) {
		s.t.Fatalf("image block %s, starting %q: want a PNG", img.MIMEType, img.Data[:min(8, len(img.Data))])
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img.Data))
	if err != nil {
		s.t.Fatalf("the PNG does not decode: %v", err)
	}
	if strings.Contains(tc.Text, "\n") {
		s.t.Errorf("the text beside the image is more than one line: %q", tc.Text)
	}
	if err := json.Unmarshal([]byte(tc.Text), &r); err != nil {
		s.t.Fatalf("text beside the image: %v\n%s", err, tc.Text)
	}
	if r.Width != cfg.Width || r.Height != cfg.Height {
		s.t.Errorf("the text says %d×%d, the PNG is %d×%d", r.Width, r.Height, cfg.Width, cfg.Height)
	}
	for _, u := range citationURIs(tc.Text) {
		checkOpens(s.t, u)
	}
	return cfg.Width, cfg.Height, r, tc.Text
}

// TestReadImage: a page and a region of a granted paper arrive through the
// official client as PNG image blocks of the sizes the bounds give; a
// region off the page, a paper outside the grant and an image past the
// budget are refused; the budget is charged for each image.
func TestReadImage(t *testing.T) {
	b := grant.DefaultBudget()
	b.TurnChars = 10000
	s := start(t, grantOf(b, grant.Source{Kind: grant.KindPaper, Ref: paxos}))

	// A US Letter page within 1568 pixels a side and 1.15 million in all.
	w, h, page, _ := s.image("context_read", map[string]any{"ref": paxos, "mode": "image", "page": 5})
	if w != 942 || h != 1219 {
		t.Errorf("page 5 is %d×%d pixels, want 942×1219", w, h)
	}
	if page.PageSize != [2]float64{612, 792} || page.Page != 5 || page.CitationURI != pdfOf(paxos)+"#page=5" {
		t.Errorf("page 5: %+v", page)
	}
	// Claude's count, 942×1219/750 tokens, at 3 characters a token.
	if want := (942*1219 + 749) / 750 * 3; page.Cost != want {
		t.Errorf("page 5 cost %d characters, want %d", page.Cost, want)
	}

	// The title of page 1 at 200 dpi, not blown up to 1568 pixels.
	w, h, region, _ := s.image("context_read", map[string]any{"ref": paxos, "mode": "image", "page": 1,
		"region": map[string]any{"x": 200, "y": 310, "width": 220, "height": 40}})
	if w != 611 || h != 111 {
		t.Errorf("the title region is %d×%d pixels, want 611×111", w, h)
	}
	if region.Region.X != 200 || region.Region.Width != 220 {
		t.Errorf("region %+v, want the one asked for", region.Region)
	}

	msg := s.fails("context_read", map[string]any{"ref": paxos, "mode": "image", "page": 1,
		"region": map[string]any{"x": 500, "y": 700, "width": 200, "height": 200}})
	if !strings.Contains(msg, "not inside the page") || !strings.Contains(msg, "612 by 792 points") {
		t.Errorf("a region off the page: %q, want a refusal saying the page's size", msg)
	}
	if msg := s.fails("context_read", map[string]any{"ref": paxos, "mode": "image"}); !strings.Contains(msg, "needs page") {
		t.Errorf("no page: %q", msg)
	}
	if msg := s.fails("context_read", map[string]any{"ref": chubby, "mode": "image", "page": 1}); msg != grant.ErrRefused.Error() {
		t.Errorf("a paper outside the grant: %q, want the uniform refusal", msg)
	}

	// 10,000 characters: the page (about 4,600) and the region (about
	// 270) were charged, so a second page does not fit.
	msg = s.fails("context_read", map[string]any{"ref": paxos, "mode": "image", "page": 6})
	if !strings.Contains(msg, "costs") || !strings.Contains(msg, "smaller region") {
		t.Errorf("a page past the budget: %q, want what it costs and a smaller region", msg)
	}
	// What is left still reads a smaller region.
	s.image("context_read", map[string]any{"ref": paxos, "mode": "image", "page": 6,
		"region": map[string]any{"x": 0, "y": 0, "width": 300, "height": 300}})

	if u := s.usage(); len(u) != 3 || u[0]["citationUri"] != pdfOf(paxos)+"#page=5" {
		t.Errorf("usage: %v, want the three images' pages", u)
	}
}

// TestVaultReadImage: the whole-vault read returns images too.
func TestVaultReadImage(t *testing.T) {
	s := startVault(t)
	w, h, r, _ := s.image("read", map[string]any{"ref": pdfOf(attention) + "#page=3", "mode": "image"})
	if r.Page != 3 || w > 1568 || h > 1568 || w*h > 1_150_000 || w*h < 1_000_000 {
		t.Errorf("page 3 of attention: %d×%d, %+v", w, h, r)
	}
	if msg := s.fails("read", map[string]any{"ref": attention, "mode": "image", "page": 3,
		"region": map[string]any{"x": 0, "y": 0, "width": 5000, "height": 10}}); !strings.Contains(msg, "not inside the page") {
		t.Errorf("a region wider than the page: %q", msg)
	}
}
