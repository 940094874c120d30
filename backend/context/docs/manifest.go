package docs

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Load states of a manifest entry.
type LoadState string

const (
	Full     LoadState = "full"     // the whole body is in the prompt
	Partial  LoadState = "partial"  // the first Shown bytes are, and the entry says where to continue
	Deferred LoadState = "deferred" // no body; the entry says how to read it
	// Withheld is a sensitive document's state in a remote session: the
	// body is not sent, whatever the budget.
	Withheld LoadState = "withheld"
)

// Entry is one always-on (or preloaded) document in the manifest.
type Entry struct {
	ID          string    `json:"id"`
	Description string    `json:"description"`
	Priority    Priority  `json:"priority"`
	Reason      string    `json:"reason"` // "always_on" or "preloadPaths"
	Load        LoadState `json:"load"`
	Bytes       int       `json:"bytes"` // the whole body
	Shown       int       `json:"shown"` // body bytes included
	Text        string    `json:"text,omitempty"`
	TrustLevel  string    `json:"trustLevel,omitempty"`  // shown in the entry's head
	Sensitivity string    `json:"sensitivity,omitempty"` // "sensitive": never sent to a remote session
}

// Manifest is the always-on part of a session's base context. Render of
// the same manifest always gives the same bytes, never more than Budget.
type Manifest struct {
	Budget         int     `json:"budget"`                   // bytes of preloaded bodies (preloadByteBudget)
	ManifestBudget int     `json:"manifestBudget,omitempty"` // bytes of the entries without bodies (manifestByteBudget)
	BodyBytes      int     `json:"bodyBytes,omitempty"`      // bytes of bodies preloaded
	Bytes          int     `json:"bytes"`                    // len(Render())
	Entries        []Entry `json:"entries"`
}

// IndexEntry is one model-decision document: its id and description, no body.
type IndexEntry struct {
	ID          string   `json:"id"`
	Description string   `json:"description"`
	Priority    Priority `json:"priority"`
	TrustLevel  string   `json:"trustLevel,omitempty"`
}

// Index is the model-decision part of a session's base context.
type Index struct {
	Bytes   int          `json:"bytes"` // len(Render())
	Entries []IndexEntry `json:"entries"`
}

// ErrManifestTooLarge is returned when the manifest's entries alone (ids,
// descriptions, load states, no bodies) exceed the preload budget: a
// session must not start with always-on rules silently missing.
var ErrManifestTooLarge = errors.New("the always-on context manifest does not fit its budget")

// minPartial is the least body worth sending as a partial load; below it the
// entry is deferred instead.
const minPartial = 256

// Assemble builds the manifest and the index of a new session. The budget
// is the rules' preloadByteBudget, else defaultBudget when positive, else
// DefaultPreloadBudget. Documents are assembled highest priority first (then
// by id): each takes its whole body if it fits what is left, else a partial
// body, else none, so lower priorities are cut first. It fails when the
// entries cannot fit even with every body deferred, or when a selected
// document cannot be read.
func (c *Catalog) Assemble(defaultBudget int) (Manifest, Index, error) {
	budget := DefaultPreloadBudget
	if c.rules.PreloadByteBudget > 0 {
		budget = c.rules.PreloadByteBudget
	} else if defaultBudget > 0 {
		budget = defaultBudget
	}
	m := Manifest{Budget: budget, Entries: []Entry{}}
	ix := Index{Entries: []IndexEntry{}}
	var bodies [][]byte
	for _, d := range c.docs {
		switch {
		case d.Forbidden:
		case d.Preload || d.Trigger == AlwaysOn:
			body, err := c.body(d.ID)
			if err != nil {
				return Manifest{}, Index{}, err
			}
			reason := "always_on"
			if d.Preload {
				reason = "preloadPaths"
			}
			m.Entries = append(m.Entries, Entry{ID: d.ID, Description: d.Description, Priority: d.Priority,
				Reason: reason, Load: Deferred, Bytes: len(body), TrustLevel: d.TrustLevel, Sensitivity: d.Sensitivity})
			bodies = append(bodies, body)
		case d.Trigger == ModelDecision:
			ix.Entries = append(ix.Entries, IndexEntry{ID: d.ID, Description: d.Description, Priority: d.Priority, TrustLevel: d.TrustLevel})
		}
	}
	order := make([]int, len(m.Entries))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return m.Entries[order[a]].Priority.rank() < m.Entries[order[b]].Priority.rank()
	})
	entries := make([]Entry, len(order))
	sorted := make([][]byte, len(order))
	for i, j := range order {
		entries[i], sorted[i] = m.Entries[j], bodies[j]
	}
	m.Entries = entries
	sort.SliceStable(ix.Entries, func(a, b int) bool { return ix.Entries[a].Priority.rank() < ix.Entries[b].Priority.rank() })

	manifestBudget := DefaultManifestBudget
	if c.rules.ManifestByteBudget > 0 {
		manifestBudget = c.rules.ManifestByteBudget
	}
	m.ManifestBudget = manifestBudget
	if skeleton := len(m.Render()); skeleton > manifestBudget {
		return Manifest{}, Index{}, fmt.Errorf("its %d entries need %d bytes with every body deferred, over the manifest budget of %d bytes (raise manifestByteBudget in %s/%s, or make some documents model_decision): %w",
			len(m.Entries), skeleton, manifestBudget, Dir, RulesFile, ErrManifestTooLarge)
	}
	// Bodies have a budget of their own: highest priority first, each
	// whole if it fits what is left, else its first part, else none.
	left := budget
	for i := range m.Entries {
		e := &m.Entries[i]
		body := sorted[i]
		switch {
		case len(body) <= left:
			e.Load, e.Shown, e.Text = Full, len(body), string(body)
		case left >= minPartial:
			n := cutPoint(body, left)
			if n < minPartial {
				continue
			}
			e.Load, e.Shown, e.Text = Partial, n, string(body[:n])
		default:
			continue
		}
		left -= e.Shown
		m.BodyBytes += e.Shown
	}
	m.Bytes = len(m.Render())
	ix.Bytes = len(ix.Render())
	return m, ix, nil
}

// cutPoint backs n off to a UTF-8 character boundary of body, and to the
// end of a line when one falls in the last quarter of the cut.
func cutPoint(body []byte, n int) int {
	if n >= len(body) {
		return len(body)
	}
	for n > 0 && !utf8.RuneStart(body[n]) {
		n--
	}
	if nl := strings.LastIndexByte(string(body[:n]), '\n'); nl >= 0 && nl+1 >= n-n/4 {
		n = nl + 1
	}
	return n
}

// manifestHead opens the manifest; it counts against the budget.
const manifestHead = "<context-documents>\nAlways-on context documents of this vault, most important first. Where a body is cut or deferred, read on with the context_read_doc tool as the entry says.\n"

// Render writes the manifest as prompt text for a session that has the
// document tools; an empty manifest is "".
func (m Manifest) Render() string { return m.RenderFor(true, false) }

// manifestHeadNoTools opens the manifest of a session without tools.
const manifestHeadNoTools = "<context-documents>\nAlways-on context documents of this vault, most important first. Where a body is cut or not loaded, the rest is not readable in this session.\n"

// RenderFor writes the manifest for a session: tools says it can call
// context_read_doc (else no entry points at it); remote says the agent
// runs elsewhere, so sensitive documents' bodies are left out.
func (m Manifest) RenderFor(tools, remote bool) string {
	if len(m.Entries) == 0 {
		return ""
	}
	var b strings.Builder
	if tools {
		b.WriteString(manifestHead)
	} else {
		b.WriteString(manifestHeadNoTools)
	}
	for _, e := range m.Entries {
		if remote && e.Sensitivity == Sensitive {
			e.Load, e.Shown, e.Text = Withheld, 0, ""
		}
		b.WriteString(entryTextFor(e, tools))
	}
	b.WriteString("</context-documents>\n")
	return b.String()
}

func entryText(e Entry) string { return entryTextFor(e, true) }

func entryTextFor(e Entry, tools bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n<context-document id=%s priority=%q load=%q bytes=\"%d\"", quote(e.ID), e.Priority, e.Load, e.Bytes)
	if e.TrustLevel != "" {
		fmt.Fprintf(&b, " trust=%q", e.TrustLevel)
	}
	b.WriteString(">\n")
	if d := oneLine(e.Description); d != "" {
		fmt.Fprintf(&b, "Description: %s\n", d)
	}
	if e.Load == Withheld {
		b.WriteString("[sensitive: its body is never sent to an agent running outside this machine]\n</context-document>\n")
		return b.String()
	}
	if e.Load != Deferred && e.Text != "" {
		b.WriteString(e.Text)
		if !strings.HasSuffix(e.Text, "\n") {
			b.WriteString("\n")
		}
	}
	// What is not shown is readable only in a session with the tools.
	switch {
	case e.Load == Partial && tools:
		fmt.Fprintf(&b, "[cut after %d of %d bytes: continue with context_read_doc {\"id\": %s, \"offset\": %d}]\n", e.Shown, e.Bytes, quote(e.ID), e.Shown)
	case e.Load == Partial:
		fmt.Fprintf(&b, "[cut after %d of %d bytes: the rest is not readable in this session]\n", e.Shown, e.Bytes)
	case e.Load == Deferred && tools:
		fmt.Fprintf(&b, "[body not loaded (%d bytes): read it with context_read_doc {\"id\": %s}]\n", e.Bytes, quote(e.ID))
	case e.Load == Deferred:
		fmt.Fprintf(&b, "[body not loaded (%d bytes): not readable in this session]\n", e.Bytes)
	}
	b.WriteString("</context-document>\n")
	return b.String()
}

// Render writes the index as prompt text; an empty index is "". It names
// context_read_doc: a session without that tool gets no index.
func (ix Index) Render() string {
	if len(ix.Entries) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<context-document-index>\nContext documents to read with context_read_doc when they bear on the question:\n")
	for _, e := range ix.Entries {
		trust := ""
		if e.TrustLevel != "" {
			trust = " (trust: " + e.TrustLevel + ")"
		}
		if d := oneLine(e.Description); d != "" {
			fmt.Fprintf(&b, "- %s%s: %s\n", quote(e.ID), trust, d)
		} else {
			fmt.Fprintf(&b, "- %s%s\n", quote(e.ID), trust)
		}
	}
	b.WriteString("</context-document-index>\n")
	return b.String()
}

// quote writes an id as a JSON string, so that any name stays one token
// the agent can pass back.
func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
