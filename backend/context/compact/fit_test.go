package compact_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/compact"
)

// papersSummary is a summarizer whose "papers and files touched" lists every
// page of every source one line each, as a careless agent would.
type papersSummary struct{ calls int }

func (p *papersSummary) Summarize(_ context.Context, prompt string) (string, error) {
	p.calls++
	var b strings.Builder
	for _, s := range compact.Sections {
		fmt.Fprintf(&b, "## %s\n", s)
		if s == "Papers and files touched" {
			for _, line := range strings.Split(prompt, "\n") {
				if src, ok := strings.CutPrefix(line, "(sources: "); ok {
					for _, x := range strings.Split(strings.TrimSuffix(src, ")"), ", ") {
						fmt.Fprintf(&b, "- %s\n", x)
					}
				}
			}
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n", s, strings.Repeat("notes on the turns so far. ", 20))
	}
	return b.String(), nil
}

// randomConversation builds n turns of real paper text: questions cut from
// pages, 0–3 tool results of one or more pages each, answers quoting them.
func randomConversation(t *testing.T, r *rand.Rand, n int) []compact.Turn {
	ps := corpusPages(t)
	turns := make([]compact.Turn, n)
	for i := range turns {
		page := ps[r.Intn(len(ps))]
		words := strings.Fields(page)
		from := r.Intn(max(1, len(words)-40))
		q := strings.Join(words[from:min(len(words), from+3+r.Intn(35))], " ")
		if r.Intn(10) == 0 { // now and then a long question
			q = strings.Join(words[:min(len(words), 300)], " ")
		}
		tr := compact.Turn{ID: fmt.Sprintf("t%d", i+1), User: fmt.Sprintf("Q%d: %s?", i+1, q), Line: i*5 + 1}
		for k := r.Intn(4); k > 0; k-- {
			pn := r.Intn(len(ps))
			text := ps[pn]
			for extra := r.Intn(4); extra > 0; extra-- {
				text += "\n" + ps[r.Intn(len(ps))]
			}
			ref := fmt.Sprintf("papers/p%d", pn%5)
			tr.Items = append(tr.Items, compact.Item{Kind: "tool_call", Tool: "context_read", Ref: ref},
				compact.Item{Kind: "tool_result", Tool: "context_read", Ref: ref, Range: fmt.Sprintf("page %d", pn+1), Text: text})
			tr.Sources = append(tr.Sources, fmt.Sprintf("%s/paper.pdf#page=%d", ref, pn+1))
		}
		aw := strings.Fields(ps[r.Intn(len(ps))])
		tr.Assistant = strings.Join(aw[:min(60+r.Intn(400), len(aw))], " ")
		turns[i] = tr
	}
	return turns
}

// verbatim reports whether the user's words are in what is sent, as a
// whole turn's line or quoted in a placeholder or the summary.
func verbatim(text, user string) bool {
	return strings.Contains(text, "User: "+user+"\n") || strings.Contains(text, fmt.Sprintf("%q", user))
}

// TestCompactionAlwaysFits is the property: for random real-paper
// conversations and windows from 1,000 to 200,000 tokens, what is sent is
// never over the window, every user message survives verbatim while the
// window has room for them all, and the transcript the turns came from is
// byte-identical afterwards.
func TestCompactionAlwaysFits(t *testing.T) {
	seed := int64(17)
	r := rand.New(rand.NewSource(seed))
	windows := []int{1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 200_000}
	dir := t.TempDir()
	iterations := 48
	if testing.Short() {
		iterations = 12
	}
	for it := 0; it < iterations; it++ {
		n := 1 + r.Intn(60)
		turns := randomConversation(t, r, n)
		window := windows[it%len(windows)]
		if it >= len(windows)*2 { // then windows anywhere in between
			window = 1_000 + r.Intn(199_001)
		}
		reserve := r.Intn(window / 3)
		var sum compact.Summarizer
		switch r.Intn(3) {
		case 0:
			sum = &papersSummary{}
		case 1:
			sum = &recorder{}
		}
		// The transcript, as the host stores it, before and after.
		path := filepath.Join(dir, fmt.Sprintf("transcript-%d.jsonl", it))
		var file bytes.Buffer
		for _, tr := range turns {
			line, _ := json.Marshal(tr)
			file.Write(append(line, '\n'))
		}
		if err := os.WriteFile(path, file.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		before := slices.Clone(turns)
		deep, _ := json.Marshal(turns)

		res := compact.Compact(context.Background(), turns, compact.Options{Window: window, Reserve: reserve, HistoryTool: r.Intn(2) == 0}, sum)
		name := fmt.Sprintf("seed %d iteration %d: %d turns, window %d, reserve %d", seed, it, n, window, reserve)

		if res.TokensAfter > window || res.TokensAfter > res.Limit || compact.Tokens(res.Text) != res.TokensAfter {
			t.Fatalf("%s: sent %d tokens (text %d), limit %d, window %d; tiers %v, notes %v", name, res.TokensAfter, compact.Tokens(res.Text), res.Limit, window, res.Tiers, res.Notes)
		}
		room := 0
		for i, tr := range turns {
			room += compact.Tokens(fmt.Sprintf("- Turn %d: %q", i+1, tr.User)) + 30
		}
		t.Logf("%s: tiers %v, tokens %d→%d, allows users %v, notes %d", name, res.Tiers, res.TokensBefore, res.TokensAfter, room <= res.Limit/2, len(res.Notes))
		if room <= res.Limit/2 {
			for i, tr := range turns {
				if !verbatim(res.Text, tr.User) {
					t.Fatalf("%s: turn %d's user message is not sent verbatim though the users' words take %d of %d tokens (tiers %v, notes %v)", name, i+1, room, res.Limit, res.Tiers, res.Notes)
				}
			}
		}
		// The last turn's question is always there, verbatim or marked cut.
		lastUser := turns[n-1].User
		if !verbatim(res.Text, lastUser) && !strings.Contains(res.Text, "[question snipped: ") && !strings.Contains(res.Text, "[cut here to fit the window]") {
			t.Fatalf("%s: the last question is neither sent nor marked cut", name)
		}
		if slices.Contains(res.Tiers, "fit") && len(res.Notes) == 0 {
			t.Errorf("%s: the fit tier ran without saying what it did", name)
		}
		if strings.Contains(res.Text, ".agentero/") {
			t.Errorf("%s: what is sent points at .agentero/, which no tool may read", name)
		}
		after, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(after, file.Bytes()) {
			t.Fatalf("%s: the transcript changed", name)
		}
		if again, _ := json.Marshal(turns); !bytes.Equal(again, deep) || !reflect.DeepEqual(before, turns) {
			t.Fatalf("%s: Compact changed the turns it was given", name)
		}
	}
}

// The case of the issue: 25 turns for a 4,000-token window came out at about
// 4,940 tokens. Now it fits, the papers touched are one line a paper with
// page ranges, and every user message is still there.
func TestTwentyFiveTurnsInFourThousandTokens(t *testing.T) {
	turns := conversation(t, 25)
	for i := range turns { // sources on few papers, many pages, some with a quote
		turns[i].Sources = []string{fmt.Sprintf("papers/p%d/paper.pdf#page=%d", i%2, i+1)}
		if i%3 == 0 {
			turns[i].Sources[0] += "&quote=a+passage+of+it"
		}
	}
	sum := &papersSummary{}
	res := compact.Compact(context.Background(), turns, compact.Options{Window: 4_000, HistoryTool: true}, sum)
	if res.TokensAfter > 4_000 {
		t.Fatalf("sent %d tokens for a 4,000-token window (tiers %v, notes %v)", res.TokensAfter, res.Tiers, res.Notes)
	}
	for i, tr := range turns {
		if !verbatim(res.Text, tr.User) {
			t.Fatalf("turn %d's user message is lost:\n%s", i+1, res.Text)
		}
	}
	if sum.calls != 1 || !slices.Contains(res.Tiers, "summarize") {
		t.Fatalf("tiers %v, %d summary calls", res.Tiers, sum.calls)
	}
	if strings.Contains(res.Text, "#page=") && strings.Count(res.Text, "papers/p0/paper.pdf") > 2 {
		t.Errorf("papers touched are listed a page a line:\n%s", res.Text)
	}
	if !strings.Contains(res.Text, "papers/p0/paper.pdf: pages ") {
		t.Errorf("papers touched are not collapsed to page ranges:\n%s", res.Text)
	}
	if !strings.Contains(res.Text, "context_history") {
		t.Error("the history does not say how to read the pruned turns")
	}
}

// A last turn over the window on its own is snipped, marked, and fits.
func TestLastTurnAloneOverTheWindow(t *testing.T) {
	ps := corpusPages(t)
	huge := strings.Join(ps, "\n")
	turns := []compact.Turn{
		{User: "first question", Assistant: "first answer"},
		{User: "Quote this back: " + huge[:min(len(huge), 30_000)], Items: []compact.Item{{Kind: "tool_result", Tool: "context_read", Text: huge}}, Assistant: huge[:min(len(huge), 20_000)]},
	}
	res := compact.Compact(context.Background(), turns, compact.Options{Window: 2_000, HistoryTool: true}, nil)
	if res.TokensAfter > 2_000 {
		t.Fatalf("sent %d tokens", res.TokensAfter)
	}
	if !strings.Contains(res.Text, "[question snipped: ") || !strings.Contains(res.Text, "context_history turn 2 has it whole") {
		t.Errorf("the snipped last turn is not marked:\n%s", res.Text)
	}
	if !strings.Contains(res.Text, "Quote this back: ") {
		t.Error("the start of the last question is gone")
	}
}
