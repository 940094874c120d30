package metadata

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"sort"

	"github.com/agentero/agentero/backend/atomicfile"
)

// Provenance keys of metadata.json, beside the values:
//
//	"edited":   ["title", "year"]                 fields the user set in Agentero (Save)
//	"source":   {"title": "pdf", "doi": "crossref"} where each written value came from
//	"imported": {"from": "file", "file": …, "values": {…}} what an import (intake) wrote
//
// An import rewrites a field only while it still holds what the import
// wrote (MergeImport); a field the user edited, or changed by hand in the
// file, is theirs.
const (
	ImportedKey = "imported"
	EditedKey   = "edited"
	SourceKey   = "source"
)

// Imported is metadata.json's "imported" object: where an import (intake)
// brought the paper from and the values of the fields it set.
type Imported struct {
	From   string                     `json:"from"`             // file, zotero, bibtex, csl
	Key    string                     `json:"key,omitempty"`    // Zotero key or citation key
	Source string                     `json:"source,omitempty"` // the Zotero data folder or .bib/.json file imported
	File   string                     `json:"file,omitempty"`   // the source PDF as it was found
	SHA256 string                     `json:"sha256,omitempty"` // of the PDF copied in
	Values map[string]json.RawMessage `json:"values,omitempty"` // what the import wrote, by key
}

// ImportedOf reads the "imported" object of a metadata.json's keys (the
// zero Imported when it has none).
func ImportedOf(raw map[string]json.RawMessage) Imported {
	var r Imported
	if v, ok := raw[ImportedKey]; ok {
		_ = json.Unmarshal(v, &r)
	}
	return r
}

// Same reports whether two records say the same, by meaning.
func (r Imported) Same(o Imported) bool {
	a, _ := json.Marshal(r)
	b, _ := json.Marshal(o)
	return sameJSON(a, b)
}

// MergeImport brings the keys raw (a metadata.json's) up to date with the
// values an import sets now, given what it wrote before (old): a field is
// written when it is missing or still holds what the import wrote, and
// removed when the import no longer sets it; a field the user edited in
// the app or changed in the file is kept. It returns the keys it changed.
func MergeImport(raw map[string]json.RawMessage, old Imported, values map[string]json.RawMessage) []string {
	keys := map[string]bool{}
	for k := range values {
		keys[k] = true
	}
	for k := range old.Values {
		keys[k] = true
	}
	var edited []string
	_ = json.Unmarshal(raw[EditedKey], &edited)
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var changed []string
	for _, k := range sorted {
		cur, has := raw[k]
		prev, wrote := old.Values[k]
		next, sets := values[k]
		userOwned := slices.Contains(edited, k) || has && !(wrote && sameJSON(cur, prev))
		if userOwned {
			continue
		}
		switch {
		case sets && !(has && sameJSON(cur, next)):
			raw[k] = next
			changed = append(changed, k)
		case !sets && has:
			delete(raw, k)
			changed = append(changed, k)
		}
	}
	return changed
}

// SetSources records from as the source of the keys an import wrote (and
// forgets the source of those it removed); an added file's fields are the
// PDF's ("pdf").
func SetSources(raw map[string]json.RawMessage, keys []string, values map[string]json.RawMessage, from string) {
	if len(keys) == 0 {
		return
	}
	if from == "file" {
		from = "pdf"
	}
	src := map[string]string{}
	_ = json.Unmarshal(raw[SourceKey], &src)
	for _, k := range keys {
		if _, ok := values[k]; ok {
			src[k] = from
		} else {
			delete(src, k)
		}
	}
	if len(src) == 0 {
		delete(raw, SourceKey)
		return
	}
	b, _ := json.Marshal(src)
	raw[SourceKey] = b
}

// WriteImported writes the metadata.json of the paper folder dir: the keys
// raw, with rec as its "imported" object, atomically.
func WriteImported(dir string, raw map[string]json.RawMessage, rec Imported) error {
	rj, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	raw[ImportedKey] = rj
	data, err := json.MarshalIndent(raw, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "metadata.json"), append(data, '\n'), 0o644)
}

// sameJSON compares two JSON values by meaning, not spelling.
func sameJSON(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
