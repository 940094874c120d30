package docs_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/context/docs"
)

func doc(trigger, priority, body string) string {
	return fmt.Sprintf("---\ndescription: about %s\ntrigger: %s\npriority: %s\n---\n%s", priority, trigger, priority, body)
}

// lines returns n bytes of numbered text lines.
func lines(prefix string, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%s line %04d\n", prefix, i)
	}
	return b.String()[:n]
}

func TestBudget(t *testing.T) {
	small := lines("s", 300)
	big := lines("b", 6000)
	huge := lines("h", 40000)
	tests := []struct {
		name   string
		files  map[string]string
		budget int
		want   []string // id:load
	}{
		{"all fit in full", map[string]string{"a.md": doc("always_on", "normal", small), "b.md": doc("always_on", "normal", big)}, 0,
			[]string{"a.md:full", "b.md:full"}},
		{"the last one is cut", map[string]string{"a.md": doc("always_on", "high", big), "b.md": doc("always_on", "normal", big), "c.md": doc("always_on", "normal", big)}, 0,
			[]string{"a.md:full", "b.md:full", "c.md:partial"}},
		{"too little room left is deferred", map[string]string{"a.md": doc("always_on", "high", lines("a", 15800)), "b.md": doc("always_on", "normal", big)}, 0,
			[]string{"a.md:full", "b.md:deferred"}},
		{"a huge body is cut to the budget", map[string]string{"a.md": doc("always_on", "normal", huge)}, 0,
			[]string{"a.md:partial"}},
		{"a smaller configured budget", map[string]string{"a.md": doc("always_on", "normal", big)}, 2000,
			[]string{"a.md:partial"}},
		{"rules.json budget wins over the caller's", map[string]string{"a.md": doc("always_on", "normal", big), docs.RulesFile: `{"preloadByteBudget": 200}`}, 50000,
			[]string{"a.md:deferred"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := scan(t, vaultWith(t, tt.files))
			m, _, err := c.Assemble(tt.budget)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range m.Entries {
				got = append(got, e.ID+":"+string(e.Load))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("load states (-want +got):\n%s", diff)
			}
			checkManifest(t, c, m)
		})
	}
}

// checkManifest checks what every manifest promises: its bodies fit the
// preload budget and its entries the manifest budget (two budgets), its
// byte count is its rendering's, and every partial entry is a prefix of the
// body that context_read_doc continues exactly where the entry says.
func checkManifest(t *testing.T, c *docs.Catalog, m docs.Manifest) {
	t.Helper()
	r := m.Render()
	bodies := 0
	for _, e := range m.Entries {
		bodies += e.Shown
	}
	if bodies > m.Budget || bodies != m.BodyBytes || len(r) != m.Bytes || len(r)-bodies > m.ManifestBudget+200*len(m.Entries) {
		t.Errorf("manifest renders %d bytes (says %d), bodies %d (says %d) of a %d budget, manifest budget %d", len(r), m.Bytes, bodies, m.BodyBytes, m.Budget, m.ManifestBudget)
	}
	for _, e := range m.Entries {
		whole := readAll(t, c, e.ID)
		switch e.Load {
		case docs.Full:
			if e.Text != whole || e.Shown != len(whole) || !strings.Contains(r, whole) {
				t.Errorf("%s: full entry does not carry the whole body", e.ID)
			}
		case docs.Partial:
			if e.Shown < 256 || e.Shown >= len(whole) || e.Text != whole[:e.Shown] || !utf8.ValidString(e.Text) {
				t.Errorf("%s: partial entry of %d bytes is not a valid prefix of the %d-byte body", e.ID, e.Shown, len(whole))
			}
			hint := fmt.Sprintf(`continue with context_read_doc {"id": %q, "offset": %d}`, e.ID, e.Shown)
			if !strings.Contains(r, hint) {
				t.Errorf("%s: no continuation hint %q", e.ID, hint)
			}
			seg, err := c.Read(e.ID, e.Shown)
			if err != nil || !strings.HasPrefix(whole[e.Shown:], seg.Text) || seg.Text == "" {
				t.Errorf("%s: reading on from the hint: %v", e.ID, err)
			}
		case docs.Deferred:
			if e.Text != "" || e.Shown != 0 || !strings.Contains(r, fmt.Sprintf(`read it with context_read_doc {"id": %q}`, e.ID)) {
				t.Errorf("%s: deferred entry must carry no body and say how to read it", e.ID)
			}
		}
	}
}

func readAll(t *testing.T, c *docs.Catalog, id string) string {
	t.Helper()
	var b strings.Builder
	for off := 0; ; {
		seg, err := c.Read(id, off)
		if err != nil {
			t.Fatalf("Read(%s, %d): %v", id, off, err)
		}
		b.WriteString(seg.Text)
		if seg.NextOffset == 0 {
			return b.String()
		}
		off = seg.NextOffset
	}
}

func TestBudgetExactBoundary(t *testing.T) {
	files := map[string]string{"a.md": doc("always_on", "high", lines("a", 3000)), "b.md": doc("always_on", "normal", lines("b", 3000))}
	c := scan(t, vaultWith(t, files))
	m, _, err := c.Assemble(50000)
	if err != nil {
		t.Fatal(err)
	}
	exact := m.BodyBytes // the preload budget counts bodies only
	m, _, err = c.Assemble(exact)
	if err != nil || m.Entries[0].Load != docs.Full || m.Entries[1].Load != docs.Full || m.BodyBytes != exact {
		t.Errorf("budget == full size: %v, %+v", err, m.Entries)
	}
	m, _, err = c.Assemble(exact - 1)
	if err != nil || m.Entries[0].Load != docs.Full || m.Entries[1].Load != docs.Partial {
		t.Errorf("budget one byte short: the lower priority must be cut: %v %s %s", err, m.Entries[0].Load, m.Entries[1].Load)
	}
	checkManifest(t, c, m)
}

func TestManifestTooLarge(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("doc-%02d.md", i)] = "---\ntrigger: always_on\ndescription: " + strings.Repeat("long description ", 25) + "\n---\nbody\n"
	}
	c := scan(t, vaultWith(t, files))
	_, _, err := c.Assemble(0)
	if !errors.Is(err, docs.ErrManifestTooLarge) {
		t.Fatalf("err = %v, want ErrManifestTooLarge", err)
	}
	for _, want := range []string{"40 entries", "8000 bytes", "manifestByteBudget"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q should say %q", err, want)
		}
	}
	// The same documents fit a budget big enough for their entries.
	files[docs.RulesFile] = `{"manifestByteBudget": 40000}`
	c = scan(t, vaultWith(t, files))
	m, _, err := c.Assemble(0)
	if err != nil {
		t.Fatal(err)
	}
	checkManifest(t, c, m)
}

func TestPriorityOrder(t *testing.T) {
	body := lines("x", 4000)
	files := map[string]string{
		"a-low.md":      doc("always_on", "low", body),
		"b-critical.md": doc("always_on", "critical", body),
		"c-normal.md":   doc("always_on", "normal", body),
		"d-high.md":     doc("always_on", "high", body),
		"e-normal.md":   doc("always_on", "normal", body),
		"f-promoted.md": doc("always_on", "low", body),
		docs.RulesFile:  `{"priorityRules": [{"pattern": "f-*.md", "priority": "critical"}]}`,
	}
	c := scan(t, vaultWith(t, files))
	m, _, err := c.Assemble(0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range m.Entries {
		got = append(got, fmt.Sprintf("%s:%s:%s", e.ID, e.Priority, e.Load))
	}
	// 16,000 bytes of bodies hold four 4,000-byte bodies (the entries
	// have a budget of their own): the highest priorities are assembled
	// first and the lowest cut first.
	want := []string{
		"b-critical.md:critical:full",
		"f-promoted.md:critical:full",
		"d-high.md:high:full",
		"c-normal.md:normal:full",
		"e-normal.md:normal:deferred",
		"a-low.md:low:deferred",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("assembly order (-want +got):\n%s", diff)
	}
	checkManifest(t, c, m)
	r := m.Render()
	if strings.Index(r, `"b-critical.md"`) > strings.Index(r, `"d-high.md"`) || strings.Index(r, `"d-high.md"`) > strings.Index(r, `"a-low.md"`) {
		t.Error("rendered manifest is not in priority order")
	}
}

func TestPartialCutsOnCharacterBoundary(t *testing.T) {
	// Bodies of 3-byte characters with no newlines: every cut must still
	// land between characters.
	for budget := 900; budget < 960; budget++ {
		c := scan(t, vaultWith(t, map[string]string{"zh.md": doc("always_on", "normal", strings.Repeat("中", 2000))}))
		m, _, err := c.Assemble(budget)
		if err != nil {
			t.Fatal(err)
		}
		if e := m.Entries[0]; e.Load != docs.Partial || e.Shown%3 != 0 {
			t.Fatalf("budget %d: %s entry of %d bytes", budget, e.Load, e.Shown)
		}
		checkManifest(t, c, m)
	}
}
