package compact_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentero/agentero/backend/context/compact"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/internal/corpustest"
)

func TestMain(m *testing.M) {
	pdf.ServeWorkerIfRequested()
	os.Exit(m.Run())
}

var (
	pagesOnce sync.Once
	pages     []string
	pagesErr  error
)

// corpusPages extracts real pages from corpus papers, to serve as tool results.
func corpusPages(t *testing.T) []string {
	t.Helper()
	corpustest.NeedCorpus(t) // missing: a skip, or a failure under make test; an extraction error always fails
	pagesOnce.Do(func() {
		ex := pdf.NewExtractor(pdf.Options{Workers: 2})
		defer ex.Close()
		for _, f := range []string{"in-search-of-an-understandable-consensus-algorithm.pdf", "bitcoin.pdf", "2205.14135.pdf"} {
			doc, err := ex.Extract(context.Background(), filepath.Join(corpustest.Dir(), f))
			if err != nil {
				pagesErr = err
				return
			}
			for _, p := range doc.Pages {
				if len(p.Text) > 500 {
					pages = append(pages, p.Text)
				}
			}
		}
	})
	if pagesErr != nil {
		t.Fatalf("extract corpus pages: %v", pagesErr)
	}
	return pages
}

// conversation builds n recorded turns: a question, a context_read of a real
// page, and an answer quoting it.
func conversation(t *testing.T, n int) []compact.Turn {
	ps := corpusPages(t)
	turns := make([]compact.Turn, n)
	for i := range turns {
		page := ps[i%len(ps)]
		first := strings.SplitN(strings.TrimSpace(page), "\n", 2)[0]
		turns[i] = compact.Turn{
			ID:   fmt.Sprintf("t%d", i+1),
			User: fmt.Sprintf("Question %d: what does page %d say about \"%s\"?", i+1, i%len(ps)+1, first),
			Items: []compact.Item{
				{Kind: "tool_call", Tool: "context_read", Ref: "papers/p"},
				{Kind: "tool_result", Tool: "context_read", Ref: "papers/p", Range: fmt.Sprintf("page %d", i%len(ps)+1), Text: page},
			},
			Assistant: "It says: " + first,
			Sources:   []string{fmt.Sprintf("papers/p/p.pdf#page=%d", i%len(ps)+1)},
			Line:      i*4 + 1,
		}
	}
	return turns
}

// recorder stands in for the agent's summary call and keeps the prompts.
type recorder struct {
	prompts []string
	fail    error
}

func (r *recorder) Summarize(_ context.Context, prompt string) (string, error) {
	r.prompts = append(r.prompts, prompt)
	if r.fail != nil {
		return "", r.fail
	}
	var b strings.Builder
	for _, s := range compact.Sections {
		fmt.Fprintf(&b, "## %s\n%s notes (call %d)\n", s, s, len(r.prompts))
	}
	return b.String(), nil
}

// windowFor returns the window at which the full history is share of it.
func windowFor(turns []compact.Turn, share float64) int {
	full := compact.Compact(context.Background(), turns, compact.Options{Window: 1 << 30}, nil)
	return int(float64(full.TokensBefore) / share)
}

func TestTiersFireAtThresholds(t *testing.T) {
	turns := conversation(t, 200)
	tests := []struct {
		share float64
		tiers []string
	}{
		{0.50, []string{}},
		{0.70, []string{"snip"}},
		{0.88, []string{"snip", "prune"}},
		{0.97, []string{"snip", "prune", "summarize"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.share), func(t *testing.T) {
			rec := &recorder{}
			res := compact.Compact(context.Background(), turns, compact.Options{Window: windowFor(turns, tt.share), HistoryTool: true}, rec)
			if !slices.Equal(res.Tiers, tt.tiers) {
				t.Fatalf("tiers = %v, want %v (tokens %d of %d)", res.Tiers, tt.tiers, res.TokensBefore, res.Limit)
			}
			// The tail guard scales with the token level: 4 turns below
			// the prune threshold, 3 below the summarize one, then 2.
			guard := map[float64]int{0.50: 4, 0.70: 4, 0.88: 3, 0.97: 2}[tt.share]
			if res.TailGuard != guard {
				t.Errorf("tail guard %d turns, want %d", res.TailGuard, guard)
			}
			for n := 200 - guard + 1; n <= 200; n++ {
				if !slices.Contains(res.Whole, n) {
					t.Errorf("turn %d is not sent whole", n)
				}
				lines := strings.Split(strings.TrimRight(turns[n-1].Items[1].Text, "\n"), "\n")
				if last := fmt.Sprintf("%5d | %s\n", len(lines), lines[len(lines)-1]); !strings.Contains(res.Text, last) {
					t.Errorf("turn %d's tool result was cut: %q missing", n, last)
				}
			}
			// No user message is lost, whatever the tier.
			summary := res.Summary
			for i, tr := range turns {
				if !strings.Contains(res.Text, tr.User) && !strings.Contains(res.Text, fmt.Sprintf("%q", tr.User)) && !strings.Contains(summary, fmt.Sprintf("%q", tr.User)) {
					t.Fatalf("user message of turn %d is lost", i+1)
				}
			}
			if len(tt.tiers) >= 1 && res.Snipped == 0 {
				t.Error("snip fired but snipped nothing")
			}
			if slices.Contains(tt.tiers, "snip") && !strings.Contains(res.Text, "[cut: lines ") {
				t.Error("a snipped result lacks its cut notice")
			}
			if slices.Contains(tt.tiers, "prune") && len(res.Pruned)+len(res.Summarized) == 0 {
				t.Error("prune fired but no turn was pruned")
			}
			if slices.Contains(tt.tiers, "summarize") {
				if len(rec.prompts) != 1 || len(res.Summarized) == 0 || len(res.Pruned) != 0 {
					t.Errorf("summarize: %d calls, %d summarized, %d still pruned", len(rec.prompts), len(res.Summarized), len(res.Pruned))
				}
				if !strings.HasPrefix(rec.prompts[0], compact.SummaryMarker) {
					t.Error("the summary prompt lacks its marker")
				}
			}
			if res.TokensAfter > res.Limit {
				t.Errorf("sent %d tokens, limit %d", res.TokensAfter, res.Limit)
			}
		})
	}
}

func TestIncrementalSummary(t *testing.T) {
	turns := conversation(t, 200)
	w := windowFor(turns, 0.97)
	rec := &recorder{}
	first := compact.Compact(context.Background(), turns, compact.Options{Window: w}, rec)
	if first.SummarizedN == 0 {
		t.Fatal("nothing summarized")
	}
	more := append(turns, conversation(t, 260)[200:]...)
	rec2 := &recorder{}
	second := compact.Compact(context.Background(), more, compact.Options{Window: w, Summary: first.Summary, SummarizedN: first.SummarizedN}, rec2)
	if len(rec2.prompts) != 1 {
		t.Fatalf("second compaction made %d summary calls (tiers %v)", len(rec2.prompts), second.Tiers)
	}
	p := rec2.prompts[0]
	if !strings.Contains(p, "<previous summary>") || !strings.Contains(p, "(call 1)") {
		t.Error("the incremental prompt lacks the previous summary")
	}
	for i := 0; i < first.SummarizedN; i++ {
		if strings.Contains(p, fmt.Sprintf("\nTurn %d\n", i+1)) {
			t.Fatalf("turn %d, already summarized, was sent again", i+1)
		}
	}
	if !strings.Contains(p, fmt.Sprintf("\nTurn %d\n", first.SummarizedN+1)) {
		t.Error("the first newly pruned turn is not in the prompt")
	}
	// Both summaries' user messages are kept verbatim.
	for i := 0; i < second.SummarizedN; i++ {
		if !strings.Contains(second.Summary, fmt.Sprintf("%q", more[i].User)) {
			t.Fatalf("turn %d's user message is not verbatim in the summary", i+1)
		}
	}
}

func TestSummaryFailureFallsBackToPrune(t *testing.T) {
	turns := conversation(t, 200)
	for name, sum := range map[string]compact.Summarizer{
		"agent error":      &recorder{fail: errors.New("agent crashed")},
		"missing sections": badSummary{},
		"no agent to ask":  nil,
	} {
		t.Run(name, func(t *testing.T) {
			res := compact.Compact(context.Background(), turns, compact.Options{Window: windowFor(turns, 0.97)}, sum)
			if slices.Contains(res.Tiers, "summarize") || len(res.Summarized) != 0 {
				t.Errorf("reported a summary after failing: tiers %v", res.Tiers)
			}
			if len(res.Pruned) == 0 || len(res.Notes) == 0 || !strings.Contains(strings.Join(res.Notes, " "), "pruned placeholders only") {
				t.Errorf("fallback not said: pruned %d, notes %v", len(res.Pruned), res.Notes)
			}
		})
	}
}

type badSummary struct{}

func (badSummary) Summarize(context.Context, string) (string, error) {
	return "a summary without sections", nil
}

func TestToolResultFormat(t *testing.T) {
	turns := []compact.Turn{{User: "q", Items: []compact.Item{{Kind: "tool_result", Tool: "context_read", Ref: "papers/raft", Range: "page 3 of 17", Text: "line one\nline two"}}, Assistant: "a"}}
	res := compact.Compact(context.Background(), turns, compact.Options{}, nil)
	want := "[tool result context_read · papers/raft · page 3 of 17]\n    1 | line one\n    2 | line two\n[end of tool result]\n"
	if !strings.Contains(res.Text, want) {
		t.Errorf("tool result shown as:\n%s\nwant it to contain:\n%s", res.Text, want)
	}
}
