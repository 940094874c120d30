package claim_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/claim"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/quote"
	"github.com/agentero/agentero/internal/corpustest"
)

// labelled is one hand-written case of testdata/labelled.jsonl: a short
// Markdown text that cites one page of a corpus paper ({cite} is the
// citation URI, {link} the agentero:// link), and what its check must say.
type labelled struct {
	Kind  string `json:"kind"`
	Paper string `json:"paper"` // the corpus file cited
	Page  int    `json:"page"`  // the page cited; 0 for the whole paper
	Quote string `json:"quote"` // the URI's quote=, if any
	Text  string `json:"text"`
	Found int    `json:"found"` // wrong-page: the page that holds the claim
	From  string `json:"from"`  // other-paper: where the claim comes from
}

// The kinds of cases and the verdicts that judge them right.
var kinds = []struct {
	name    string
	right   []citation.Verdict
	correct bool // a correct citation: any other verdict is a false alarm
}{
	{"verbatim", []citation.Verdict{citation.Verified}, true},
	{"paraphrase", []citation.Verdict{citation.Supported}, true},
	{"page-break", []citation.Verdict{citation.Verified}, true},
	{"column-break", []citation.Verdict{citation.Verified}, true},
	{"wrong-page", []citation.Verdict{citation.WrongPage}, false},
	{"other-paper", []citation.Verdict{citation.Unsupported}, false},
	{"changed-number", []citation.Verdict{citation.Weak, citation.Unsupported}, false},
}

func readLabelled(t *testing.T) []labelled {
	t.Helper()
	f, err := os.Open("testdata/labelled.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c labelled
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("labelled.jsonl:%d: %v", n, err)
		}
		out = append(out, c)
	}
	return out
}

// render is a case's Markdown text with its citation written in.
func (c labelled) render(root string) string {
	uri := citation.New(pdfPath(c.Paper), c.Page, c.Quote).String()
	link := applink.Link{Vault: root, Ref: corpustest.Ref(c.Paper), Page: c.Page, Quote: c.Quote}.String()
	return strings.NewReplacer("{cite}", uri, "{link}", link).Replace(c.Text)
}

// TestLabelled checks the hand-written cases and scores each kind: the
// share judged right, and the false alarms on correct citations. It fails
// under the rates issue 22 asks for on papers we do not have: 15 of 16
// verbatim quotes verified, 90 % of every other kind, at most 2 false
// alarms in 32 correct citations.
func TestLabelled(t *testing.T) {
	root, db := corpusVault(t)
	cases := readLabelled(t)
	type tally struct{ n, right int }
	score := map[string]*tally{}
	correct, alarms := 0, 0
	passages, located := 0, 0 // checks that name a passage, and those whose passage is on its page
	var wrong []string
	for i, c := range cases {
		var kind = -1
		for k, kd := range kinds {
			if kd.name == c.Kind {
				kind = k
			}
		}
		if kind < 0 {
			t.Fatalf("case %d: unknown kind %q", i+1, c.Kind)
		}
		md := c.render(root)
		checks, err := claim.Check(t.Context(), md, db, claim.Options{Vault: root})
		if err != nil {
			t.Fatalf("case %d: %v", i+1, err)
		}
		if len(checks) != 1 {
			t.Errorf("case %d (%s): %d checks, want 1: %+v", i+1, c.Kind, len(checks), checks)
			continue
		}
		got := checks[0]
		if got.Why == "" || got.Line < 1 || md[got.Start:got.End] == "" {
			t.Errorf("case %d: check without why or place: %+v", i+1, got)
		}
		if testing.Verbose() {
			t.Logf("%-14s %2d %-12s %d %s", c.Kind, i+1, got.Verdict, got.FoundPage, got.Why)
		}
		switch got.Verdict {
		case citation.Supported, citation.Weak, citation.WrongPage:
			passages++
			on := got.Page
			if got.FoundPage > 0 {
				on = got.FoundPage
			}
			if passageOnPage(t, db, c.Paper, on, got.Passage) {
				located++
			} else {
				t.Errorf("case %d (%s): the passage of a %s check is not on page %d: %q", i+1, c.Kind, got.Verdict, on, got.Passage)
			}
		}
		s := score[c.Kind]
		if s == nil {
			s = &tally{}
			score[c.Kind] = s
		}
		s.n++
		ok := false
		for _, v := range kinds[kind].right {
			ok = ok || got.Verdict == v
		}
		if c.Kind == "wrong-page" && got.FoundPage != c.Found {
			ok = false
		}
		if ok {
			s.right++
		} else {
			wrong = append(wrong, fmt.Sprintf("  %-14s case %2d %s p.%d: %s (found %d) — %s", c.Kind, i+1, c.Paper, c.Page, got.Verdict, got.FoundPage, got.Why))
		}
		if kinds[kind].correct {
			correct++
			if got.Verdict != citation.Verified && got.Verdict != citation.Supported {
				alarms++
			}
		}
	}
	var names []string
	for _, kd := range kinds {
		names = append(names, kd.name)
	}
	sort.SliceStable(names, func(i, j int) bool { return false })
	t.Logf("labelled set: %d cases", len(cases))
	for _, kd := range kinds {
		s := score[kd.name]
		if s == nil || s.n == 0 {
			t.Errorf("no %s cases", kd.name)
			continue
		}
		rate := float64(s.right) / float64(s.n)
		t.Logf("  %-14s %3d of %3d right (%.0f %%)", kd.name, s.right, s.n, 100*rate)
		min := 0.9
		if kd.name == "verbatim" {
			min = 15.0 / 16
		}
		if rate < min {
			t.Errorf("%s: %d of %d right, want at least %.0f %%", kd.name, s.right, s.n, 100*min)
		}
	}
	t.Logf("  false alarms: %d on %d correct citations", alarms, correct)
	t.Logf("  passages of supported, weak and wrong-page checks on their page: %d of %d", located, passages)
	if float64(alarms) > float64(correct)*2/32 {
		t.Errorf("%d false alarms on %d correct citations, want at most 2 in 32", alarms, correct)
	}
	if len(wrong) > 0 {
		t.Logf("judged otherwise:\n%s", strings.Join(wrong, "\n"))
	}
}

// passageOnPage reports whether the locator finds a check's passage on
// page n of a corpus paper, in the index's text.
func passageOnPage(t *testing.T, db *index.DB, file string, n int, passage string) bool {
	t.Helper()
	if passage == "" || n < 1 {
		return false
	}
	pages, err := db.Pages(t.Context(), corpustest.Ref(file), n, n+1)
	if err != nil {
		t.Fatal(err)
	}
	in := make([]quote.Page, len(pages))
	for i, p := range pages {
		in[i] = quote.Page{Number: p.Number, Text: p.Text}
	}
	_, ok := quote.NewPaper(in).Find(n, passage)
	return ok
}
