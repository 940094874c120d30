package intake

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseBib: any input parses without panicking or looping, and every
// entry it returns has a type.
func FuzzParseBib(f *testing.F) {
	for _, s := range []string{
		`@article{k, title = {A {nested} title}, author = "Doe, J. and {ACME}", year = 2020}`,
		`@string{x = "a"} @misc(k, title = x # {b} # "c")`,
		`@comment{ { } @preamble{"\x"} @article{k, file = {:a\:b.pdf:PDF}}`,
		`@article{k, title={`, `@`, `@{`, `@article{k,,,}`, `@article{k, crossref={k}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		entries, _ := parseBib(src)
		resolveCrossrefs(entries)
		for _, e := range entries {
			if e.Type == "" {
				t.Fatalf("entry without a type: %+v", e)
			}
			bibToEntry(e, []string{"/refs"})
		}
	})
}

// FuzzDelatex: the text is valid UTF-8 when the input is, and has no braces.
func FuzzDelatex(f *testing.F) {
	for _, s := range []string{`G{\"o}del`, `\'{\i}`, `\ss{}`, `{\`, `\"`, `\c`, `--- -- $x$`, `\emph{\textbf{a}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := delatex(s)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("delatex(%q) = %q, not UTF-8", s, got)
		}
		if strings.ContainsAny(got, "{}") && !strings.Contains(s, `\{`) && !strings.Contains(s, `\}`) {
			t.Fatalf("delatex(%q) = %q keeps braces", s, got)
		}
		bibNames(s)
	})
}
