package docs_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/context/docs"
)

func TestListPaging(t *testing.T) {
	files := map[string]string{}
	var all []string
	for i := range 45 {
		id := fmt.Sprintf("doc-%02d.md", i)
		files[id] = "---\ndescription: number " + fmt.Sprint(i) + "\n---\nbody\n"
		all = append(all, id)
	}
	c := scan(t, vaultWith(t, files))

	pages := func(limit int) [][]string {
		var out [][]string
		cursor := ""
		for range 100 {
			p, err := c.List(cursor, limit)
			if err != nil {
				t.Fatalf("List(%q, %d): %v", cursor, limit, err)
			}
			if p.Total != 45 {
				t.Errorf("total = %d, want 45", p.Total)
			}
			var ids []string
			for _, d := range p.Docs {
				ids = append(ids, d.ID)
			}
			out = append(out, ids)
			if p.NextCursor == "" {
				return out
			}
			cursor = p.NextCursor
		}
		t.Fatal("listing did not end")
		return nil
	}
	tests := []struct {
		limit int
		want  [][]string
	}{
		{0, [][]string{all[:20], all[20:40], all[40:]}}, // default 20
		{20, [][]string{all[:20], all[20:40], all[40:]}},
		{50, [][]string{all}}, // the maximum
		{45, [][]string{all}},
		{44, [][]string{all[:44], all[44:]}},
		{1, func() [][]string {
			var p [][]string
			for _, id := range all {
				p = append(p, []string{id})
			}
			return p
		}()},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint("limit ", tt.limit), func(t *testing.T) {
			if diff := cmp.Diff(tt.want, pages(tt.limit)); diff != "" {
				t.Errorf("pages (-want +got):\n%s", diff)
			}
		})
	}

	first, _ := c.List("", 0)
	if d := first.Docs[3]; d.ID != "doc-03.md" || d.Description != "number 3" || d.Trigger != docs.Manual || d.Priority != docs.Normal || d.Bytes != 5 {
		t.Errorf("item = %+v", d)
	}
	for _, bad := range []struct {
		cursor string
		limit  int
		want   string
	}{
		{"", 51, "limit must be between 1 and 50"},
		{"", -1, "limit must be between 1 and 50"},
		{"not a cursor!", 0, "cursor is not valid"},
		{"ZDE6Li4vLi4vZXRjL3Bhc3N3ZA", 0, "cursor is not valid"}, // d1:../../etc/passwd
		{strings.Repeat("A", 300), 0, "cursor is not valid"},
	} {
		_, err := c.List(bad.cursor, bad.limit)
		var ie *docs.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("List(%q, %d): err = %v, want an InputError saying %q", bad.cursor, bad.limit, err, bad.want)
		}
	}

	// A cursor names the last id returned: a document added before it
	// does not repeat or skip anything after it.
	files["doc-00a.md"] = "new\n"
	c2 := scan(t, vaultWith(t, files))
	p, err := c2.List(first.NextCursor, 0)
	if err != nil || p.Docs[0].ID != "doc-20.md" {
		t.Errorf("second page after an insert starts at %+v, %v; want doc-20.md", p.Docs, err)
	}
}

func TestReadSegments(t *testing.T) {
	const seg = docs.SegmentBytes
	ascii := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name string
		body string
		want []int // segment lengths
	}{
		{"empty", "", []int{0}},
		{"one byte", "x", []int{1}},
		{"exactly one segment", ascii(seg), []int{seg}},
		{"one byte over", ascii(seg + 1), []int{seg, 1}},
		{"exactly two segments", ascii(2 * seg), []int{seg, seg}},
		{"two-byte character across the boundary", ascii(seg-1) + "é" + "z", []int{seg - 1, 3}},
		{"three-byte character across the boundary", ascii(seg-2) + "中" + "z", []int{seg - 2, 4}},
		{"three-byte character ending at the boundary", ascii(seg-3) + "中" + "z", []int{seg, 1}},
		{"four-byte character across the boundary", ascii(seg-1) + "😀", []int{seg - 1, 4}},
		{"all three-byte characters", strings.Repeat("中", 6000), []int{8190, 8190, 1620}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := scan(t, vaultWith(t, map[string]string{"d.md": "---\ntrigger: manual\n---\n" + tt.body}))
			var got []int
			var whole strings.Builder
			off := 0
			for {
				s, err := c.Read("d.md", off)
				if err != nil {
					t.Fatal(err)
				}
				if s.Offset != off || s.Bytes != len(tt.body) || s.ID != "d.md" {
					t.Errorf("segment header = %+v", s)
				}
				got = append(got, len(s.Text))
				whole.WriteString(s.Text)
				if s.NextOffset == 0 {
					break
				}
				if s.NextOffset != off+len(s.Text) {
					t.Fatalf("nextOffset %d, want %d", s.NextOffset, off+len(s.Text))
				}
				off = s.NextOffset
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("segment lengths (-want +got):\n%s", diff)
			}
			if whole.String() != tt.body {
				t.Error("segments do not add up to the body")
			}
		})
	}

	c := scan(t, vaultWith(t, map[string]string{"d.md": "héllo"}))
	for _, bad := range []struct {
		off  int
		want string
	}{
		{-1, "outside the document"},
		{7, "outside the document"},
		{2, "inside a character"},
	} {
		_, err := c.Read("d.md", bad.off)
		var ie *docs.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Read(d.md, %d): err = %v, want %q", bad.off, err, bad.want)
		}
	}
	if s, err := c.Read("d.md", 6); err != nil || s.Text != "" || s.NextOffset != 0 {
		t.Errorf("read at the very end: %+v, %v", s, err)
	}
}
