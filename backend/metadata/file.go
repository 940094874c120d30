package metadata

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/agentero/agentero/backend/vault"
)

// File is a paper's metadata.json as this package reads and writes it (the
// one owner of the format). Known keys are snake_case fields; every other
// key (the provenance keys "edited", "source", "imported" among them) is
// kept in Extra so that a rewrite never drops what a user or another tool
// stored there.
type File struct {
	ID       string
	Title    string
	Authors  []string
	Year     int
	Abstract string
	DOI      string
	ArxivID  string
	Tags     []string
	Extra    map[string]json.RawMessage
}

// ReadPath reads and parses the metadata.json at the vault-relative path
// rel in the vault at root, through the vault's confined opener (at most
// vault.KindMetadata's cap). Read reads a paper's by its ref.
func ReadPath(ctx context.Context, root, rel string) (File, error) {
	data, err := vault.ReadFile(ctx, root, rel, vault.KindMetadata)
	if err != nil {
		return File{}, err
	}
	var m File
	if err := json.Unmarshal(data, &m); err != nil {
		return File{}, fmt.Errorf("parse %s: %w", "metadata.json", err)
	}
	return m, nil
}

// UnmarshalJSON accepts the shapes real metadata files use: authors as a list
// of strings, a list of {"name"} or {"family","given"} objects, or one string;
// year as a number or a string.
func (m *File) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*m = File{Extra: map[string]json.RawMessage{}}
	for k, v := range raw {
		switch k {
		case "id":
			m.ID = looseString(v)
		case "title":
			m.Title = strings.TrimSpace(looseString(v))
		case "abstract":
			m.Abstract = strings.TrimSpace(looseString(v))
		case "doi":
			m.DOI = strings.TrimSpace(looseString(v))
		case "arxiv_id":
			m.ArxivID = strings.TrimSpace(looseString(v))
		case "year":
			m.Year = looseInt(v)
		case "authors":
			m.Authors = looseNames(v)
		case "tags":
			m.Tags = looseNames(v)
		default:
			m.Extra[k] = v
		}
	}
	return nil
}

// MarshalJSON writes known keys that are set, then the preserved unknown
// keys, in a stable order.
func (m File) MarshalJSON() ([]byte, error) {
	out := map[string]any{}
	for k, v := range m.Extra {
		out[k] = v
	}
	set := func(k string, v any, ok bool) {
		if ok {
			out[k] = v
		}
	}
	set("id", m.ID, m.ID != "")
	set("title", m.Title, m.Title != "")
	set("authors", m.Authors, len(m.Authors) > 0)
	set("year", m.Year, m.Year != 0)
	set("abstract", m.Abstract, m.Abstract != "")
	set("doi", m.DOI, m.DOI != "")
	set("arxiv_id", m.ArxivID, m.ArxivID != "")
	set("tags", m.Tags, len(m.Tags) > 0)
	keys := make([]string, 0, len(out))
	for k := range out {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(out[k])
		if err != nil {
			return nil, err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func looseString(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(v, &n) == nil {
		return n.String()
	}
	return ""
}

func looseInt(v json.RawMessage) int {
	var n int
	if json.Unmarshal(v, &n) == nil {
		return n
	}
	if s := strings.TrimSpace(looseString(v)); len(s) >= 4 {
		if y, err := strconv.Atoi(s[:4]); err == nil {
			return y
		}
	}
	return 0
}

func looseNames(v json.RawMessage) []string {
	var list []json.RawMessage
	if json.Unmarshal(v, &list) != nil {
		if s := looseString(v); s != "" {
			return splitNames(s)
		}
		return nil
	}
	var out []string
	for _, item := range list {
		if s := strings.TrimSpace(looseString(item)); s != "" {
			out = append(out, s)
			continue
		}
		var obj struct{ Name, Family, Given, Literal string }
		if json.Unmarshal(item, &obj) == nil {
			switch {
			case obj.Name != "":
				out = append(out, obj.Name)
			case obj.Literal != "":
				out = append(out, obj.Literal)
			case obj.Family != "":
				out = append(out, strings.TrimSpace(obj.Given+" "+obj.Family))
			}
		}
	}
	return out
}

// splitNames splits an author string such as "A. Turing and J. von Neumann"
// or "Turing, A.; von Neumann, J." into names.
func splitNames(s string) []string {
	sep := ","
	if strings.Contains(s, ";") {
		sep = ";"
	}
	s = strings.ReplaceAll(s, " and ", sep)
	s = strings.ReplaceAll(s, " & ", sep)
	var out []string
	for _, p := range strings.Split(s, sep) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// SplitAuthors splits a free-text author field (from PDF Info, say) into names.
func SplitAuthors(s string) []string { return splitNames(s) }

// Edited is the "edited" list of metadata.json: the fields the user set in
// the app (package metadata writes it); never nil.
func (m File) Edited() []string {
	out := []string{}
	_ = json.Unmarshal(m.Extra["edited"], &out)
	if out == nil {
		out = []string{}
	}
	return out
}

// Sources is the "source" map of metadata.json: where each field's value
// came from ("user", "pdf", "zotero", "crossref"…); never nil.
func (m File) Sources() map[string]string {
	out := map[string]string{}
	_ = json.Unmarshal(m.Extra["source"], &out)
	if out == nil {
		out = map[string]string{}
	}
	return out
}
