package mcp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/internal/corpustest"
)

// resultChars is the most one result may hold to stay under the
// 25,000-token result limit some MCP clients enforce, at the densest
// tokenization measured on the corpus (grant.DefaultBudget's comment).
const resultChars = 45000

// typicalPapers are the three longest corpus papers at or below the
// median length of whole-paper text (the manifest's text_chars, over the
// papers with a text layer): any three papers of typical length are no
// longer than these.
func typicalPapers(t *testing.T) []string {
	type paper struct {
		file  string
		chars int
	}
	var ps []paper
	for _, r := range corpustest.Manifest(t) {
		n, _ := strconv.Atoi(r["text_chars"])
		if r["text_extracts"] == "yes" && n > 0 {
			ps = append(ps, paper{r["file"], n})
		}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].chars < ps[j].chars })
	m := (len(ps) - 1) / 2
	if m < 2 {
		t.Fatalf("%d corpus papers with text: too few for a median", len(ps))
	}
	return []string{ps[m-2].file, ps[m-1].file, ps[m].file}
}

// readWhole reads a paper with mode full, making each cut result's next
// call as it is written, until the paper is read to its end. It returns
// the characters of every result, and fails the test on an error or a
// page left out.
func readWhole(t *testing.T, s *session, ref string) int {
	t.Helper()
	args := map[string]any{"ref": ref, "mode": "full"}
	var text strings.Builder
	chars, pages := 0, 0
	for calls := 1; ; calls++ {
		var r textT
		raw := okIn(t, s, args, &r)
		n := utf8.RuneCountInString(raw)
		if n > resultChars {
			t.Errorf("%s: a result of %d characters, over the %d one result may hold", ref, n, resultChars)
		}
		chars += n
		text.WriteString(r.Text)
		pages = r.Pages
		if r.Next == nil {
			break
		}
		if r.Next.Tool != "context_read" || r.Remaining == "" || calls > 20 {
			t.Fatalf("%s: a cut result naming next %+v, remaining %q", ref, r.Next, r.Remaining)
		}
		args = r.Next.Arguments
	}
	for p := 1; p <= pages; p++ {
		if !strings.Contains(text.String(), fmt.Sprintf("[page %d]", p)) && !strings.Contains(text.String(), fmt.Sprintf("[page %d,", p)) {
			t.Errorf("%s: page %d of %d was not read", ref, p, pages)
		}
	}
	return chars
}

// okIn is session.ok for a vault of its own: a context_read that must
// succeed, decoded into v.
func okIn(t *testing.T, s *session, args map[string]any, v any) string {
	t.Helper()
	text, isErr := s.call("context_read", args)
	if isErr {
		t.Fatalf("context_read %v: tool error %q", args, text)
	}
	if err := json.Unmarshal([]byte(text), v); err != nil {
		t.Fatalf("context_read: result is not JSON: %v\n%s", err, text)
	}
	return text
}

var spentWords = regexp.MustCompile(`its (\d+) results held (\d+) of the (\d+) characters`)

// TestTurnReadsThreeTypicalPapers: with the default budget, a turn reads
// three whole papers of typical length (following each cut's next call);
// the fourth, which would pass the budget, is cut with a note that names
// the call that reads on and what remains, and after it the budget is
// spent, saying how much was read. The host's next turn of the same grant
// gets the whole budget again in the very server process the agent kept;
// between turns nothing is read.
func TestTurnReadsThreeTypicalPapers(t *testing.T) {
	needVault(t)
	papers := typicalPapers(t)
	fourth := "in-search-of-an-understandable-consensus-algorithm.pdf" // Raft, at the corpus's upper quartile
	root := corpustest.Vault(t, append(papers, fourth)...)
	cmd := exec.Command(binary, "index", root)
	cmd.Env = testEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("agentero index: %v\n%s", err, out)
	}
	g := grantOf(grant.DefaultBudget())
	g.Vault = root
	for _, f := range append(papers, fourth) {
		g.Allowed = append(g.Allowed, grant.Source{Kind: grant.KindPaper, Ref: corpustest.Ref(f)})
	}
	p, err := grant.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	s := spawn(t, p)
	turn := g.Budget.TurnChars

	used := 0
	for _, f := range papers {
		n := readWhole(t, s, corpustest.Ref(f))
		t.Logf("%s: %d characters", f, n)
		used += n
	}
	if used > turn {
		t.Fatalf("three typical papers took %d characters, over the turn's %d", used, turn)
	}

	raft := corpustest.Ref(fourth)
	var cut textT
	raw := okIn(t, s, map[string]any{"ref": raft, "mode": "full"}, &cut)
	used += utf8.RuneCountInString(raw)
	wantNext := &callT{Tool: "context_read", Arguments: map[string]any{"ref": raft, "mode": "full", "cursor": cut.NextCursor}}
	if !cut.Truncated || cut.NextCursor == "" || !cmp.Equal(cut.Next, wantNext) {
		t.Errorf("the fourth paper: truncated %v, next %+v; want cut, next %+v", cut.Truncated, cut.Next, wantNext)
	}
	if !regexp.MustCompile(`^pages \d+–17 of 17 \(\d+ characters\)$`).MatchString(cut.Remaining) {
		t.Errorf("the fourth paper's remaining: %q, want the pages left", cut.Remaining)
	}
	if !strings.Contains(cut.Note, "this turn's budget") || !strings.Contains(cut.Note, "new turn") || !strings.Contains(cut.Note, "Settings") {
		t.Errorf("the fourth paper's note: %q, want the turn's budget, a new turn and Settings named", cut.Note)
	}
	if used > turn {
		t.Fatalf("the turn returned %d characters, over its %d", used, turn)
	}

	msg := s.fails("context_read", map[string]any{"ref": raft, "mode": "full", "cursor": cut.NextCursor})
	m := spentWords.FindStringSubmatch(msg)
	if m == nil || !strings.Contains(msg, "new turn") {
		t.Fatalf("after the budget: %q, want how much was read and that the rest needs a new turn", msg)
	}
	if held, _ := strconv.Atoi(m[2]); held != used || m[3] != strconv.Itoa(turn) {
		t.Errorf("the spent note says %s of %s characters; the client received %d of %d", m[2], m[3], used, turn)
	}

	// The turn ends: the kept server reads nothing until the next turn.
	if err := grant.EndTurn(root, g.RuntimeID); err != nil {
		t.Fatal(err)
	}
	if msg := s.fails("context_search", map[string]any{"query": "consensus"}); !strings.Contains(msg, "no turn is open") {
		t.Errorf("between turns: %q, want no turn open", msg)
	}
	// The host writes the next turn's grant; the same process reads Raft
	// whole, the next call the cut named included.
	if _, err := grant.Write(g); err != nil {
		t.Fatal(err)
	}
	var again textT
	okIn(t, s, cut.Next.Arguments, &again)
	if again.Text == "" || again.Next == nil {
		t.Errorf("the cut's next call in the next turn: %d characters, next %+v", len(again.Text), again.Next)
	}
	if n := readWhole(t, s, raft); n > turn {
		t.Errorf("the next turn read Raft in %d characters", n)
	}
}

// TestTurnBudgetAcrossProcesses: every server process of a grant charges
// the same turn. Parallel calls to three processes together return no
// more than the turn's budget, and a process started later in the turn
// finds it spent; the next turn's grant gives the whole budget back.
func TestTurnBudgetAcrossProcesses(t *testing.T) {
	b := grant.DefaultBudget()
	b.TurnChars = 30000
	g := grantOf(b, grant.Source{Kind: grant.KindPaper, Ref: raft}, grant.Source{Kind: grant.KindPaper, Ref: attention})
	needVault(t)
	p, err := grant.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	procs := []*session{spawn(t, p), spawn(t, p), spawn(t, p)}
	var mu sync.Mutex
	returned, spent := 0, 0
	var wg sync.WaitGroup
	for i := range 36 {
		wg.Go(func() {
			ref, page := raft, i%17+1
			if i%2 == 1 {
				ref, page = attention, i%15+1
			}
			text, isErr := procs[i%3].call("context_read", map[string]any{"ref": ref, "mode": "page", "page": page})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case !isErr:
				returned += utf8.RuneCountInString(text)
			case strings.Contains(text, "spent"):
				spent++
			default:
				t.Errorf("page %d of %s: %s", page, ref, text)
			}
		})
	}
	wg.Wait()
	if returned > b.TurnChars || spent == 0 {
		t.Errorf("three processes returned %d characters in a turn of %d; %d calls found it spent", returned, b.TurnChars, spent)
	}
	if returned < b.TurnChars/2 {
		t.Errorf("three processes returned only %d characters of a turn of %d", returned, b.TurnChars)
	}
	late := spawn(t, p)
	if msg := late.fails("context_read", map[string]any{"ref": raft, "mode": "page", "page": 1}); !strings.Contains(msg, "spent") {
		t.Errorf("a process started later in the turn: %q, want the turn's budget spent", msg)
	}
	if _, err := grant.Write(g); err != nil {
		t.Fatal(err)
	}
	var page textT
	late.ok("context_read", map[string]any{"ref": raft, "mode": "page", "page": 1}, &page)
	if page.Text == "" {
		t.Error("the next turn read nothing")
	}
}

// TestCutNamesTheNextCall: every kind of cut result names the call that
// reads on, and making it continues where the cut ended.
func TestCutNamesTheNextCall(t *testing.T) {
	b := grant.DefaultBudget()
	b.FullChars, b.DirEntries, b.SearchCards = 1500, 5, 2
	s := start(t, grantOf(b, grant.Source{Kind: grant.KindPaper, Ref: raft}, grant.Source{Kind: grant.KindPaper, Ref: attention},
		grant.Source{Kind: grant.KindDirectory, Ref: "notes/consensus"}))
	for _, c := range []struct {
		name string
		tool string
		args map[string]any
	}{
		{"full", "context_read", map[string]any{"ref": raft, "mode": "full"}},
		{"page", "context_read", map[string]any{"ref": raft, "mode": "page", "page": 3}},
		{"section", "context_read", map[string]any{"ref": attention, "mode": "section", "section": "Training"}},
		{"file", "context_read", map[string]any{"ref": "notes/consensus/long.md"}},
		{"listing", "context_read", map[string]any{"ref": "notes/consensus/dir-many"}},
		{"search", "context_search", map[string]any{"query": "leader election"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var first struct {
				cutT
				Text    string
				Entries []string
				Cards   []json.RawMessage
			}
			s.ok(c.tool, c.args, &first)
			if first.Next == nil || first.Next.Tool != c.tool || first.Next.Arguments["cursor"] != first.NextCursor {
				t.Fatalf("next %+v, cursor %q; want a %s call with the cursor", first.Next, first.NextCursor, c.tool)
			}
			for k, v := range c.args {
				if got := fmt.Sprint(first.Next.Arguments[k]); got != fmt.Sprint(v) && !(k == "section" && strings.HasSuffix(got, " "+v.(string))) {
					t.Errorf("next call's %s = %v, want %v as asked", k, first.Next.Arguments[k], v)
				}
			}
			if c.tool == "context_read" && first.Remaining == "" {
				t.Error("a cut read that does not say what remains")
			}
			var second struct {
				cutT
				Text    string
				Entries []string
				Cards   []json.RawMessage
			}
			s.ok(c.tool, first.Next.Arguments, &second)
			switch {
			case first.Text != "" && (second.Text == "" || second.Text == first.Text):
				t.Errorf("the next call read %q after %q", clip(second.Text), clip(first.Text))
			case first.Entries != nil && (len(second.Entries) == 0 || second.Entries[0] == first.Entries[0]):
				t.Errorf("the next listing %v after %v", second.Entries, first.Entries)
			case first.Cards != nil && (len(second.Cards) == 0 || bytes.Equal(second.Cards[0], first.Cards[0])):
				t.Errorf("the next cards %s after %s", second.Cards, first.Cards)
			}
		})
	}
}

func clip(s string) string { return s[:min(len(s), 60)] }
