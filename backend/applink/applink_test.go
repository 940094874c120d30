package applink

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/citation"
)

func TestParseGood(t *testing.T) {
	l, err := Parse("agentero://open?vault=/home/me/My%20Papers&ref=papers/raft&page=7&quote=Raft%20decomposes%20consensus")
	if err != nil {
		t.Fatal(err)
	}
	want := Link{Vault: "/home/me/My Papers", Ref: "papers/raft", Page: 7, Quote: "Raft decomposes consensus"}
	if l != want {
		t.Fatalf("got %+v, want %+v", l, want)
	}
	// Without page and quote: page 1.
	l, err = Parse("agentero://open?vault=/v&ref=papers/a/b")
	if err != nil || l.Page != 1 || l.Quote != "" || l.Ref != "papers/a/b" {
		t.Fatalf("got %+v, %v", l, err)
	}
	// A figure's region, written with its commas; one that can lie on no page is dropped.
	l, err = Parse("agentero://open?vault=/v&ref=papers/a&page=2&region=69,36.6,243.8,196.7")
	if err != nil || l.Region != (citation.Region{X: 69, Y: 36.6, Width: 243.8, Height: 196.7}) || l.Page != 2 {
		t.Fatalf("got %+v, %v", l, err)
	}
	if s := l.String(); s != "agentero://open?vault=%2Fv&ref=papers%2Fa&page=2&region=69,36.6,243.8,196.7" {
		t.Errorf("written as %s", s)
	}
	if l, err = Parse("agentero://open?vault=/v&ref=papers/a&page=2&region=14000,0,900,10"); err != nil || !l.Region.IsZero() || l.Page != 2 {
		t.Errorf("an impossible region: %+v, %v; want the page without it", l, err)
	}
	// String and Parse agree, whatever the quote holds.
	for _, q := range []string{"a+b & c=d", "100% of #1?", "naïve “quotes” — dash", "line\nbreak"} {
		in := Link{Vault: "/tmp/v a", Ref: "papers/x y", Page: 3, Quote: q}
		out, err := Parse(in.String())
		if err != nil || out != in {
			t.Errorf("round trip of %q: %+v, %v (link %s)", q, out, err, in.String())
		}
	}
}

func TestParseHostile(t *testing.T) {
	long := strings.Repeat("x", MaxQuote+1)
	cases := map[string]string{
		"other scheme":          "https://open?vault=/v&ref=papers/a",
		"file scheme":           "file:///etc/passwd",
		"javascript":            "javascript:alert(1)",
		"opaque":                "agentero:open?vault=/v&ref=papers/a",
		"other host":            "agentero://evil?vault=/v&ref=papers/a",
		"user info":             "agentero://me@open?vault=/v&ref=papers/a",
		"port":                  "agentero://open:80?vault=/v&ref=papers/a",
		"path":                  "agentero://open/x?vault=/v&ref=papers/a",
		"fragment":              "agentero://open?vault=/v&ref=papers/a#page=2",
		"no vault":              "agentero://open?ref=papers/a",
		"relative vault":        "agentero://open?vault=v&ref=papers/a",
		"vault traversal":       "agentero://open?vault=/v/../etc&ref=papers/a",
		"vault not clean":       "agentero://open?vault=/v//w/&ref=papers/a",
		"no ref":                "agentero://open?vault=/v",
		"ref traversal":         "agentero://open?vault=/v&ref=papers/../../etc/passwd",
		"ref encoded traversal": "agentero://open?vault=/v&ref=papers%2F..%2F..%2Fetc",
		"ref absolute":          "agentero://open?vault=/v&ref=/etc/passwd",
		"ref outside papers":    "agentero://open?vault=/v&ref=notes/a",
		"ref state folder":      "agentero://open?vault=/v&ref=.agentero/chats",
		"ref papers itself":     "agentero://open?vault=/v&ref=papers",
		"ref hidden":            "agentero://open?vault=/v&ref=papers/.git",
		"ref backslash":         "agentero://open?vault=/v&ref=papers%5C..%5Cx",
		"ref NUL":               "agentero://open?vault=/v&ref=papers/a%00b",
		"page 0":                "agentero://open?vault=/v&ref=papers/a&page=0",
		"page negative":         "agentero://open?vault=/v&ref=papers/a&page=-3",
		"page NaN":              "agentero://open?vault=/v&ref=papers/a&page=NaN",
		"page float":            "agentero://open?vault=/v&ref=papers/a&page=2.5",
		"page leading zero":     "agentero://open?vault=/v&ref=papers/a&page=007",
		"page huge":             "agentero://open?vault=/v&ref=papers/a&page=99999999999999999999",
		"page past cap":         "agentero://open?vault=/v&ref=papers/a&page=100001",
		"page empty":            "agentero://open?vault=/v&ref=papers/a&page=",
		"huge quote":            "agentero://open?vault=/v&ref=papers/a&quote=" + long,
		"control in quote":      "agentero://open?vault=/v&ref=papers/a&quote=a%07b",
		"repeated param":        "agentero://open?vault=/v&vault=/w&ref=papers/a",
		"unknown param":         "agentero://open?vault=/v&ref=papers/a&exec=rm",
		"region of three":       "agentero://open?vault=/v&ref=papers/a&page=2&region=1,2,3",
		"region negative":       "agentero://open?vault=/v&ref=papers/a&page=2&region=-1,2,3,4",
		"region repeated":       "agentero://open?vault=/v&ref=papers/a&page=2&region=1,2,3,4&region=1,2,3,4",
		"bad escape":            "agentero://open?vault=/v&ref=papers/a&quote=%zz",
		"space":                 "agentero://open?vault=/v&ref=papers/a &page=1",
		"too long":              "agentero://open?vault=/v&ref=papers/a&quote=" + strings.Repeat("%20", MaxLength),
		"empty":                 "",
	}
	for name, raw := range cases {
		l, err := Parse(raw)
		if err == nil {
			t.Errorf("%s: %q was accepted as %+v", name, raw, l)
			continue
		}
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: error %v does not wrap ErrInvalid", name, err)
		}
	}
}

func TestCheckVault(t *testing.T) {
	dir := t.TempDir()
	v := filepath.Join(dir, "vault")
	if err := os.MkdirAll(filepath.Join(v, "papers", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain")
	os.Mkdir(plain, 0o755)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(v, link)
	if err := CheckVault(Link{Vault: v}); err != nil {
		t.Errorf("a vault: %v", err)
	}
	for name, p := range map[string]string{"missing": filepath.Join(dir, "gone"), "plain folder": plain, "file": file, "symlink": link} {
		err := CheckVault(Link{Vault: p})
		if err == nil {
			t.Errorf("%s %s was taken for a vault", name, p)
		} else if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: the sentence %q does not name the folder", name, err)
		}
	}
}

// TestCheckKnown: a link's vault is known only when it is one of the
// user's vaults, however either is written (links resolved); any other
// folder, even one that looks like a vault, is not.
func TestCheckKnown(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	mine := filepath.Join(base, "mine")
	theirs := filepath.Join(base, "theirs")
	for _, d := range []string{mine, theirs} {
		os.MkdirAll(filepath.Join(d, "papers"), 0o755)
	}
	os.Symlink(mine, filepath.Join(base, "mine-link"))
	known := []string{filepath.Join(base, "gone"), mine}
	tests := []struct {
		vault string
		known bool
	}{
		{mine, true},
		{filepath.Join(base, "mine-link"), true},
		{theirs, false},
		{base, false},
		{filepath.Join(base, "gone"), true}, // one the user opened: known even when gone (CheckVault says it is gone)
		{filepath.Join(base, "minex"), false},
	}
	for _, tt := range tests {
		err := CheckKnown(Link{Vault: tt.vault, Ref: "papers/a", Page: 1}, known)
		if (err == nil) != tt.known {
			t.Errorf("CheckKnown(%s) = %v, want known %v", tt.vault, err, tt.known)
		}
		if err != nil && (!errors.Is(err, ErrUnknownVault) || !strings.Contains(err.Error(), tt.vault)) {
			t.Errorf("CheckKnown(%s) = %q: want ErrUnknownVault naming the folder", tt.vault, err)
		}
	}
	if err := CheckKnown(Link{Vault: mine}, nil); err == nil {
		t.Error("no known vaults: every vault is unknown")
	}
}
