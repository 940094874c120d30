package docs

import (
	"encoding/base64"
	"sort"
	"strings"
	"unicode/utf8"
)

// Listing and reading limits (SPEC §11).
const (
	DefaultListLimit = 20
	MaxListLimit     = 50
	SegmentBytes     = 8192
)

// maxCursor bounds a cursor as the tool schema does.
const maxCursor = 200

// Item is one document in a listing.
type Item struct {
	ID          string   `json:"id"`
	Description string   `json:"description,omitempty"`
	Trigger     Trigger  `json:"trigger"`
	Priority    Priority `json:"priority"`
	Bytes       int      `json:"bytes"`
}

// Page is one page of a listing. NextCursor is empty on the last page.
type Page struct {
	Docs       []Item `json:"docs"`
	Total      int    `json:"total"`
	NextCursor string `json:"nextCursor,omitempty"`
}

// List returns the documents after cursor ("" for the first page), sorted
// by id, limit at a time: 0 means DefaultListLimit, and more than
// MaxListLimit is refused. The cursor names the last id returned, so a
// document added or removed between calls shifts nothing else.
func (c *Catalog) List(cursor string, limit int) (Page, error) {
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 1 || limit > MaxListLimit {
		return Page{}, inputErrorf("limit must be between 1 and %d", MaxListLimit)
	}
	start := 0
	if cursor != "" {
		after, ok := readCursor(cursor)
		if !ok {
			return Page{}, inputErrorf("cursor is not valid: pass the nextCursor of the previous call")
		}
		start = sort.Search(len(c.docs), func(i int) bool { return c.docs[i].ID > after })
	}
	end := min(start+limit, len(c.docs))
	p := Page{Docs: make([]Item, 0, end-start), Total: len(c.docs)}
	for _, d := range c.docs[start:end] {
		p.Docs = append(p.Docs, Item{ID: d.ID, Description: d.Description, Trigger: d.Trigger, Priority: d.Priority, Bytes: d.Bytes})
	}
	if end < len(c.docs) {
		p.NextCursor = base64.RawURLEncoding.EncodeToString([]byte("d1:" + c.docs[end-1].ID))
	}
	return p, nil
}

func readCursor(c string) (string, bool) {
	if len(c) > maxCursor {
		return "", false
	}
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return "", false
	}
	id, ok := strings.CutPrefix(string(raw), "d1:")
	return id, ok && validID(id)
}

// Segment is a piece of a document's body (front matter excluded).
// NextOffset is 0 when the segment reaches the end.
type Segment struct {
	ID         string `json:"id"`
	Offset     int    `json:"offset"`
	Bytes      int    `json:"bytes"` // the whole body
	Text       string `json:"text"`
	NextOffset int    `json:"nextOffset,omitempty"`
	Revision   string `json:"revision,omitempty"` // pass as expectedRevision to edit
	Etag       string `json:"etag,omitempty"`     // or as expectedEtag
}

// Read returns up to SegmentBytes of a document's body from offset, ending
// on a UTF-8 character boundary. Offsets are byte offsets into the body:
// 0, or a NextOffset, or the offset a manifest entry gave. The body is read
// from disk now, so an edit since the session began shows.
func (c *Catalog) Read(id string, offset int) (Segment, error) {
	body, err := c.body(id)
	if err != nil {
		return Segment{}, err
	}
	switch {
	case offset < 0 || offset > len(body):
		return Segment{}, inputErrorf("offset %d is outside the document (%d bytes)", offset, len(body))
	case offset < len(body) && !utf8.RuneStart(body[offset]):
		return Segment{}, inputErrorf("offset %d is inside a character: use the offset a previous read or the manifest gave", offset)
	}
	end := min(offset+SegmentBytes, len(body))
	for end < len(body) && end > offset && !utf8.RuneStart(body[end]) {
		end--
	}
	s := Segment{ID: id, Offset: offset, Bytes: len(body), Text: strings.ToValidUTF8(string(body[offset:end]), "\uFFFD")}
	if r, err := Stat(c.root, id); err == nil {
		s.Revision, s.Etag = r.Revision, r.Etag // what an edit based on this read carries
	}
	if end < len(body) {
		s.NextOffset = end
	}
	return s, nil
}
