package docs

import (
	"bytes"
	"path"
	"strings"
	"testing"
)

// FuzzParseDoc checks that any file either parses to a known trigger and
// priority with a body that is a suffix of the file, or is refused with an
// error: it never panics and never invents a value.
func FuzzParseDoc(f *testing.F) {
	for _, s := range []string{
		"", "---", "---\n---\n", "# x\n", "---\ndescription: d\ntrigger: always_on\npriority: high\n---\nbody",
		"---\ntags:\n  - a\n---\n", "---\ndescription: \"a\\\"b\"\n---\n", "---\ndescription: 'it''s'\n---\n",
		"\uFEFF---\r\ntrigger: manual\r\n...\r\n", "---\ntrigger: always\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, body, err := parseDoc(data)
		if err != nil {
			return
		}
		switch m.trigger {
		case AlwaysOn, ModelDecision, Manual:
		default:
			t.Fatalf("trigger %q", m.trigger)
		}
		if _, ok := parsePriority(string(m.priority)); !ok {
			t.Fatalf("priority %q", m.priority)
		}
		if !bytes.HasSuffix(data, body) || len(m.description) > maxDescription {
			t.Fatalf("body is not the file's end, or description too long")
		}
	})
}

// FuzzValidID checks that no id a path check accepts can climb out of the
// context folder or name a hidden file.
func FuzzValidID(f *testing.F) {
	for _, s := range []string{"a.md", "../a.md", "a/../b.md", "/a.md", ".a.md", "a/.b/c.md", "a\\b.md", "a\x00.md", "a//b.md", "a/./b.md", "x.MD"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if !validID(id) {
			return
		}
		if strings.HasPrefix(id, "/") || strings.Contains(id, "..") && strings.Contains("/"+id+"/", "/../") ||
			path.Clean(id) != id || strings.ContainsAny(id, "\x00\\") || strings.Contains("/"+id, "/.") {
			t.Fatalf("accepted %q", id)
		}
	})
}

// FuzzMatch checks that the glob matcher terminates and agrees with
// path.Match on patterns without "**".
func FuzzMatch(f *testing.F) {
	f.Add("archive/**", "archive/a/b.md")
	f.Add("*.md", "a.md")
	f.Add("**/x.md", "x.md")
	f.Fuzz(func(t *testing.T, pattern, id string) {
		if validPattern(pattern) != nil || len(pattern) > 100 || len(id) > 200 {
			return
		}
		got := match(pattern, id)
		if !strings.Contains(pattern, "**") {
			want, _ := path.Match(pattern, id)
			if got != want {
				t.Fatalf("match(%q, %q) = %v, path.Match says %v", pattern, id, got, want)
			}
		}
	})
}
