package text_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/text"
)

func TestFold(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"Paxos Made SIMPLE", "paxos made simple"},
		{"Mazières", "mazieres"},
		{"Mazie\u0300res", "mazieres"}, // decomposed: the mark is dropped
		{"Straße", "strasse"},
		{"Łukasz Kaiser", "lukasz kaiser"},
		{"Æsop, Œuvre, Ørsted", "aesop, oeuvre, orsted"},
		{"\uFB01nd e\uFB00ect", "find effect"},
		{"x² — “quoted”", "x2 — “quoted”"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := text.Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"High-performance, fault-tolerant", []string{"high", "performance", "fault", "tolerant"}},
		{"naïve café (2006)", []string{"naive", "cafe", "2006"}},
		{"col:value NEAR(x) a*", []string{"col", "value", "near", "x", "a"}},
		{"  —  ", []string{}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, text.Words(tt.in)); diff != "" {
			t.Errorf("Words(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want []text.Term
	}{
		{"raft leader", []text.Term{{Words: []string{"raft"}}, {Words: []string{"leader"}}}},
		{`"log matching" property`, []text.Term{{Words: []string{"log", "matching"}, Phrase: true}, {Words: []string{"property"}}}},
		{`unclosed "quote here`, []text.Term{{Words: []string{"unclosed"}}, {Words: []string{"quote"}}, {Words: []string{"here"}}}},
		{"col:value NEAR(x)", []text.Term{{Words: []string{"col"}}, {Words: []string{"value"}}, {Words: []string{"NEAR"}}, {Words: []string{"x"}}}},
		{`""""`, nil},
		{"  ", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, text.Parse(tt.in)); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestContent(t *testing.T) {
	tests := []struct {
		in   string
		want []string // keys of the content terms
	}{
		{"how do nodes agree on a leader after a crash", []string{"nodes", "agree", "leader", "crash"}},
		{"Raft raft RAFT log", []string{"raft", "log"}},
		{`the "state of the art" of the`, []string{"state of the art"}},
		{"What does the paper say about it?", nil},
		{`"the"`, []string{"the"}},
	}
	for _, tt := range tests {
		var got []string
		for _, term := range text.Content(text.Distinct(text.Parse(tt.in))) {
			got = append(got, term.Key())
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("content of %q (-want +got):\n%s", tt.in, diff)
		}
	}
}

// FuzzParse checks what the index relies on: every term has words, every
// word is made of word runes only (so no query syntax reaches FTS5), and a
// word folds to itself once folded.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`"log matching" property`, `a* NEAR(b c) "`, "Straße \uFB01 x\u0301", "\x00\"\"", `'; DROP TABLE papers; --`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		for _, term := range text.Parse(q) {
			if len(term.Words) == 0 {
				t.Fatalf("Parse(%q): a term without words", q)
			}
			for _, w := range term.Words {
				if w == "" || strings.IndexFunc(w, func(r rune) bool { return !text.IsWordRune(r) }) >= 0 {
					t.Fatalf("Parse(%q): word %q holds a separator", q, w)
				}
			}
			if k := term.Key(); utf8.ValidString(q) && text.Fold(k) != k {
				t.Fatalf("Parse(%q): key %q is not folded", q, k)
			}
		}
	})
}
