package corpustest

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// Row is one row of a corpus CSV file, from column name to value.
type Row map[string]string

// Int is the row's column read as a number, 0 when it is empty or not one.
func (r Row) Int(column string) int {
	n, _ := strconv.Atoi(r[column])
	return n
}

// ReadCSV reads the CSV file at path (a corpus file, as CSV reads it, or a
// test's own testdata/*.csv) as one Row a line after the header, keyed by
// the header's names. It is the one reader of the tests' CSV files; tests
// without a testing.TB (a TestMain) call it directly.
func ReadCSV(path string) ([]Row, error) {
	name := filepath.Base(path)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s is empty", name)
	}
	rows := make([]Row, 0, len(recs)-1)
	for _, r := range recs[1:] {
		row := make(Row, len(r))
		for i, h := range recs[0] {
			row[h] = r[i]
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// CSV reads a corpus CSV file for t. A missing corpus stops the test (see
// Unavailable); a malformed file fails it.
func CSV(t testing.TB, name string) []Row {
	t.Helper()
	if _, err := os.Stat(filepath.Join(Dir(), name)); err != nil {
		Unavailable(t, "corpus not available (../shared/corpus beside the repository): %v", err)
	}
	rows, err := ReadCSV(filepath.Join(Dir(), name))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// Manifest reads manifest.csv: one Row a paper.
// A missing corpus stops the test (see Unavailable).
func Manifest(t testing.TB) []Row {
	t.Helper()
	return CSV(t, "manifest.csv")
}
