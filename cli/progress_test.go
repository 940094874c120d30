package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestProgressInALog checks that progress written to a log (not a
// terminal) has no carriage returns and a line per tenth, not per paper.
func TestProgressInALog(t *testing.T) {
	var b bytes.Buffer
	show := progressPrinter(&b, "indexing")
	for i := 0; i <= 100; i++ {
		show(i, 100, fmt.Sprintf("papers/p%d", i))
	}
	out := b.String()
	if strings.Contains(out, "\r") {
		t.Errorf("carriage returns in a log:\n%q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 11 || lines[10] != "indexing 100/100 done" {
		t.Errorf("%d lines, want 10 tenths and the end:\n%s", len(lines), out)
	}
}
