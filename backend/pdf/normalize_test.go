package pdf

import (
	"strings"
	"testing"
	"unicode"

	"github.com/agentero/agentero/backend/text"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty", "", ""},
		{"only white space", " \r\n\t\u00A0\n  ", ""},
		{"crlf and cr", "one\r\ntwo\rthree", "one\ntwo\nthree"},
		{"words keep their spaces", "a consensus  algorithm", "a consensus  algorithm"},
		{"trailing spaces trimmed", "line one   \nline two\t\n", "line one\nline two"},
		{"leading spaces kept", "  indented", "  indented"},
		{"pdfium text hyphen joins the word", "understandabil\uFFFEity, Raft", "understandability, Raft"},
		{"pdfium char hyphen at line end", "consen\u0002\r\nsus algorithms", "consensus algorithms"},
		{"soft hyphen at line end", "distri\u00AD\n  buted", "distributed"},
		{"soft hyphen with trailing space", "distri\u00AD \nbuted", "distributed"},
		{"soft hyphen inside a line", "co\u00ADoperate", "cooperate"},
		{"real hyphen kept", "fault-\ntolerant", "fault-\ntolerant"},
		{"no-break spaces", "10\u00A0ms and 5\u202Fkg", "10 ms and 5 kg"},
		{"tab becomes space", "a\tb", "a b"},
		{"control characters dropped", "a\x00b\x07c\x1bd", "abcd"},
		{"ligatures", "\uFB01nd \uFB02ow e\uFB00ect o\uFB03ce wa\uFB04e \uFB06op", "find flow effect office waffle stop"},
		{"two blank lines kept", "a\n\n\nb", "a\n\n\nb"},
		{"more blank lines cut to two", "a\n\n\n\n\n\nb", "a\n\n\nb"},
		{"blank lines of spaces count", "a\n  \n \n\t\n\nb", "a\n\n\nb"},
		{"blank lines at the ends removed", "\n\n\ntext\n\n\n", "text"},
		{"unicode kept", "Martín ∀s ∈ R — “quoted”", "Martín ∀s ∈ R — “quoted”"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Normalize(tt.in); got != tt.want {
				t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzNormalize checks the properties every caller relies on: Normalize is
// idempotent and its output has no carriage returns, control characters
// other than newlines, ligatures or trailing spaces.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", "a\r\nb", "x\uFFFEy", "z\u0002\n w", "\uFB03\n\n\n\n.", " \u00AD \n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Normalize(s)
		if again := Normalize(got); again != got {
			t.Errorf("Normalize not idempotent: %q -> %q -> %q", s, got, again)
		}
		for _, line := range strings.Split(got, "\n") {
			if strings.HasSuffix(line, " ") {
				t.Errorf("line %q ends in a space", line)
			}
		}
		for _, r := range got {
			if r != '\n' && unicode.IsControl(r) || text.Ligature(r) != "" || r == softHyphen || r == textHyphenMarker {
				t.Errorf("output %q holds %U", got, r)
			}
		}
		if strings.Contains(got, "\n\n\n\n") {
			t.Errorf("output %q holds more than two blank lines in a row", got)
		}
	})
}
