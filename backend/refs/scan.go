package refs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"time"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/vault"
)

// ScanPath is where a vault's cited-by cache lives (SPEC §1, §5).
func ScanPath(vaultRoot string) string {
	return filepath.Join(vaultRoot, filepath.FromSlash(scanRel))
}

// Scan is the library-wide citing scan, .agentero/citing-scan.json: for
// every paper whose reference list was read, what it was read from and
// which library papers it cites. Cited-by is this map read backwards.
type Scan struct {
	SchemaVersion int                  `json:"schemaVersion"`
	GeneratedAt   string               `json:"generatedAt"`
	Library       string               `json:"library"` // the library the matches were made against
	Papers        map[string]ScanPaper `json:"papers"`
}

// ScanPaper is one paper of the scan.
type ScanPaper struct {
	ScanKey   string       `json:"scanKey"` // hash of the inputs its list was read from
	Mode      string       `json:"mode"`    // agentero-pdf, agentero-bib, or a sidecar's mode
	Citations int          `json:"citations"`
	Note      string       `json:"note,omitempty"`
	Cites     []LocalMatch `json:"cites"` // library papers it cites, by paperPath
}

// CitedBy returns the papers whose lists cite ref, by paperPath.
func (s *Scan) CitedBy(ref string) []LocalMatch {
	out := []LocalMatch{}
	for citing, p := range s.Papers {
		for _, c := range p.Cites {
			if c.PaperPath == ref && citing != ref {
				out = append(out, LocalMatch{PaperPath: citing, MatchBy: c.MatchBy})
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PaperPath < out[j].PaperPath })
	return out
}

// scanRel is the citing scan's path in the vault.
const scanRel = vault.StateDir + "/citing-scan.json"

// ReadScan reads a vault's citing scan, through the vault's opener (it is
// the vault's file too); a missing one reads as empty.
func ReadScan(ctx context.Context, vaultRoot string) (*Scan, error) {
	s := &Scan{SchemaVersion: 1, Papers: map[string]ScanPaper{}}
	data, err := vault.ReadFile(ctx, vaultRoot, scanRel, vault.KindState)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read citing scan: %w", err)
	}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("read citing scan: %w", err)
	}
	if s.Papers == nil {
		s.Papers = map[string]ScanPaper{}
	}
	return s, nil
}

// writeScan rebuilds the citing scan from the index and writes it when it
// changed (or is missing), recording the papers that left it.
func writeScan(ctx context.Context, db *index.DB, root string, now time.Time, libKey string, st *Stats) (*Scan, error) {
	states, err := listStates(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("citing scan: %w", err)
	}
	edges, err := citationEdges(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("citing scan: %w", err)
	}
	scan := &Scan{SchemaVersion: 1, Library: libKey, Papers: map[string]ScanPaper{}}
	for ref, s := range states {
		scan.Papers[ref] = ScanPaper{ScanKey: s.ScanKey, Mode: s.Mode, Citations: s.Citations, Note: s.Note, Cites: []LocalMatch{}}
	}
	for _, e := range edges {
		p, ok := scan.Papers[e.Citing]
		if !ok {
			continue
		}
		p.Cites = append(p.Cites, LocalMatch{PaperPath: e.Cited, MatchBy: e.MatchBy})
		scan.Papers[e.Citing] = p
		st.Edges++
	}
	old, err := ReadScan(ctx, root)
	if err != nil {
		old = &Scan{Papers: map[string]ScanPaper{}} // unreadable: rewritten below
	}
	for ref := range old.Papers {
		if _, ok := scan.Papers[ref]; !ok {
			st.Removed = append(st.Removed, ref)
		}
	}
	sort.Strings(st.Removed)
	scan.GeneratedAt = old.GeneratedAt
	if same, _ := sameJSON(old, scan); same && old.GeneratedAt != "" {
		return scan, nil
	}
	scan.GeneratedAt = now.UTC().Format(time.RFC3339)
	data, err := json.MarshalIndent(scan, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := atomicfile.Write(ScanPath(root), append(data, '\n'), atomicfile.Private); err != nil {
		return nil, fmt.Errorf("write citing scan: %w", err)
	}
	return scan, nil
}

func sameJSON(a, b any) (bool, error) {
	x, err := json.Marshal(a)
	if err != nil {
		return false, err
	}
	y, err := json.Marshal(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(x, y), nil
}
