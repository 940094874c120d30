package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestLedgerParallel: charges from many goroutines, each with a ledger of
// its own on the same file (as separate server processes have), take
// exactly what fits, and every one of them agrees on which were taken.
func TestLedgerParallel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "budget-t.jsonl")
	const limit, each, calls = 20000, 900, 60
	var taken, refused atomic.Int64
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			ok, err := ledger{path: path, limit: limit}.charge("context_read", each)
			switch {
			case err != nil:
				t.Error(err)
			case ok:
				taken.Add(1)
			default:
				refused.Add(1)
			}
		})
	}
	wg.Wait()
	if got, want := int(taken.Load()), limit/each; got != want {
		t.Errorf("%d charges of %d taken under a limit of %d, want %d", got, each, limit, want)
	}
	got, err := ledger{path: path, limit: limit}.tally()
	if err != nil {
		t.Fatal(err)
	}
	if want := (tally{used: limit / each * each, calls: limit / each}); got != want {
		t.Errorf("tally %+v, want %+v", got, want)
	}
	// A record that does not fit takes nothing: a small one after it still fits.
	if ok, _ := (ledger{path: path, limit: limit}).charge("context_search", limit-got.used); !ok {
		t.Errorf("the last %d characters were refused", limit-got.used)
	}
	if ok, _ := (ledger{path: path, limit: limit}).charge("context_search", 1); ok {
		t.Error("a charge past the limit was taken")
	}
}

// TestLedgerFailsClosed: a ledger that cannot be read whole counts as
// spent, and says why.
func TestLedgerFailsClosed(t *testing.T) {
	good := `{"id":"a1","tool":"context_read","chars":100}` + "\n"
	for name, content := range map[string]string{
		"a torn record":          good + `{"id":"b2","tool":"cont` + `{"id":"c3","tool":"context_read","chars":5}` + "\n",
		"a negative charge":      good + `{"id":"b2","tool":"context_read","chars":-50000}` + "\n",
		"a record with no id":    good + `{"tool":"context_read","chars":1}` + "\n",
		"a file past maxLedger":  strings.Repeat(good, maxLedger/len(good)+1),
		"a line that is no JSON": good + "garbage\n",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "budget-t.jsonl")
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			l := ledger{path: path, limit: 1000}
			got, err := l.tally()
			if err == nil || got.used < l.limit {
				t.Errorf("tally %+v, %v; want the budget spent and an error", got, err)
			}
			if ok, err := l.charge("context_read", 1); ok || err == nil {
				t.Errorf("charge on a damaged ledger: %v, %v; want refused with an error", ok, err)
			}
		})
	}
	// A last record still being written is not counted yet, and not an error.
	path := filepath.Join(t.TempDir(), "budget-t.jsonl")
	os.WriteFile(path, []byte(good+`{"id":"b2","tool":"con`), 0o600)
	if got, err := (ledger{path: path, limit: 1000}).tally(); err != nil || got != (tally{used: 100, calls: 1}) {
		t.Errorf("a record being written: tally %+v, %v; want the one whole record", got, err)
	}
}

// TestJSONWidth: cut measures text as marshal writes it.
func TestJSONWidth(t *testing.T) {
	var runes []rune
	for r := rune(0); r < 0x300; r++ {
		runes = append(runes, r)
	}
	runes = append(runes, '\u2028', '\u2029', '\uFFFD', '–', '€', '𝔸', '中')
	for _, r := range runes {
		s, err := marshal(string(r))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := jsonWidth(r), runeCount(s)-2; got != want {
			t.Errorf("jsonWidth(%U) = %d, marshal writes %d (%s)", r, got, want, s)
		}
	}
}
