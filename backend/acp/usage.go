package acp

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
)

// readSources reads the citation URIs the MCP server returned since offset
// in usage.jsonl: de-duplicated, in first-use order.
func readSources(path string, offset int64) ([]string, error) {
	out := []string{}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return out, err
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var line struct {
			CitationURI string `json:"citationUri"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.CitationURI == "" || seen[line.CitationURI] {
			continue
		}
		seen[line.CitationURI] = true
		out = append(out, line.CitationURI)
	}
	return out, sc.Err()
}
