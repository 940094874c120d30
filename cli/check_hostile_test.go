//go:build unix

package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/internal/hostilevault"
	"github.com/google/go-cmp/cmp"
)

// `check` on the hostile vault of issue 13, citing every planted file:
// it ends, never shows what lies outside the vault, judges none of them
// more than broken or unsupported, writes nothing outside the vault, and
// a Markdown file that is a FIFO is refused without waiting on it.
func TestCheckHostile(t *testing.T) {
	v := hostilevault.Build(t)
	before := v.Snapshot(t)
	var md strings.Builder
	for _, p := range v.Plants {
		if p.Vault == "root" {
			md.WriteString("The private word is " + hostilevault.Marker[:4] + " [x](" + p.Path + "#page=1).\n\n")
		}
	}
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.md")
	os.WriteFile(notes, []byte(md.String()), 0o644)
	fifo := filepath.Join(dir, "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	e := env(t)
	type result struct {
		out, errOut string
		code        int
	}
	runBounded := func(args ...string) result {
		done := make(chan result, 1)
		go func() {
			o, eo, c := runIn(t, e, args...)
			done <- result{o, eo, c}
		}()
		select {
		case r := <-done:
			return r
		case <-time.After(4 * time.Minute):
			t.Fatalf("%v hangs", args)
		}
		return result{}
	}
	r := runBounded("check", v.Root, notes, "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	if strings.Contains(r.out+r.errOut, hostilevault.Marker) {
		t.Errorf("check shows the marker of a file outside the vault:\n%.3000s", r.out)
	}
	var got checkOutput
	if err := json.Unmarshal([]byte(r.out), &got); err != nil {
		t.Fatalf("%v\n%.2000s", err, r.out)
	}
	if len(got.Citations) == 0 {
		t.Fatal("no citations read")
	}
	for _, c := range got.Citations {
		switch c.Verdict {
		case citation.Verified, citation.Supported, citation.WrongPage:
			t.Errorf("%s: %s (%s)", c.URI, c.Verdict, c.Why)
		}
	}
	r = runBounded("check", v.Root, fifo)
	if r.code != 1 || !strings.Contains(r.errOut, "not a regular file") {
		t.Errorf("a FIFO as the Markdown file: exit %d, %q", r.code, r.errOut)
	}
	if d := cmp.Diff(before, v.Snapshot(t)); d != "" {
		t.Errorf("files appeared or changed outside the vaults (-before +after):\n%s", d)
	}
	t.Logf("%d citations of planted files: %v", len(got.Citations), got.Summary.Verdicts)
}
