package pdf

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

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

// FuzzNormalizeMapped checks that NormalizeMapped gives Normalize's text
// (and Normalize the text of the line-by-line version it replaced), and
// that every rune of it maps to the rune it came from.
func FuzzNormalizeMapped(f *testing.F) {
	for _, s := range []string{"", "a\r\nb", "x\uFFFEy", "z\u0002\r\n w", "\uFB03\n\n\n\n.", " \u00AD \n", "a\r\r\nb\tc\u00A0d  \n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		runes := []rune(s)
		got, from := NormalizeMapped(runes)
		if want := normalizeBefore(s); got != want {
			t.Fatalf("NormalizeMapped(%q) = %q, the line-by-line Normalize gave %q", s, got, want)
		}
		if n := Normalize(s); n != got {
			t.Fatalf("Normalize(%q) = %q, NormalizeMapped %q", s, n, got)
		}
		out := []rune(got)
		if len(from) != len(out) {
			t.Fatalf("%d positions for %d runes", len(from), len(out))
		}
		for k, r := range out {
			switch at := from[k]; {
			case at < 0:
				if r != '\n' {
					t.Fatalf("rune %d %q maps nowhere", k, r)
				}
			case at >= len(runes):
				t.Fatalf("rune %d maps past the input", k)
			case runes[at] == r, r == ' ' && (runes[at] == '\t' || runes[at] == '\u00A0' || runes[at] == '\u2007' || runes[at] == '\u202F'):
			case strings.ContainsRune(text.Ligature(runes[at]), r):
			default:
				t.Fatalf("rune %d %q maps to %q", k, r, runes[at])
			}
		}
	})
}

func normalizeBefore(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")

	var out strings.Builder
	out.Grow(len(s))
	var line strings.Builder
	blank := 0 // blank lines seen since the last line with text
	started := false

	flush := func() {
		text := strings.TrimRight(line.String(), " ")
		line.Reset()
		if text == "" {
			blank++
			return
		}
		if started {
			out.WriteByte('\n')
			for range min(blank, maxBlankLines) {
				out.WriteByte('\n')
			}
		}
		out.WriteString(text)
		started = true
		blank = 0
	}

	runes := []rune(s)
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch {
		case r == '\n':
			flush()
		case r == hyphenMarker || r == textHyphenMarker || r == softHyphen:
			// A break marker followed (after optional spaces) by a line end
			// joins the word with the next line; anywhere else it is dropped.
			j := i + 1
			for j < len(runes) && (runes[j] == ' ' || runes[j] == '\t') {
				j++
			}
			if j < len(runes) && runes[j] == '\n' {
				j++
				for j < len(runes) && (runes[j] == ' ' || runes[j] == '\t') {
					j++
				}
				i = j - 1
			}
		case r == '\t' || r == '\u00A0' || r == '\u2007' || r == '\u202F':
			line.WriteByte(' ')
		case unicode.IsControl(r):
			// Dropped: control characters carry no text.
		default:
			if lig := text.Ligature(r); lig != "" {
				line.WriteString(lig) // so that "ﬁnd" is found by a search for "find"
			} else {
				line.WriteRune(r)
			}
		}
	}
	flush()
	return out.String()
}
