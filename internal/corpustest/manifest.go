package corpustest

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
)

// Manifest reads manifest.csv: one map a paper, from column name to value.
// A missing corpus stops the test (see Unavailable).
func Manifest(t testing.TB) []map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(Dir(), "manifest.csv"))
	if err != nil {
		Unavailable(t, "corpus not available (../shared/corpus beside the repository): %v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("manifest.csv: %v", err)
	}
	if len(recs) == 0 {
		t.Fatal("manifest.csv is empty")
	}
	var rows []map[string]string
	for _, r := range recs[1:] {
		row := make(map[string]string, len(r))
		for i, h := range recs[0] {
			row[h] = r[i]
		}
		rows = append(rows, row)
	}
	return rows
}
