package agent

// What the agent reads of a turn's prompt: the context plan Agentero
// rendered into it (backend/context/plan, Render). That text is a contract,
// parsed here line by line as it is written there; anything that does not
// follow it is not evidence. A "> " line elsewhere in the prompt (a
// blockquote in the vault's AGENTS.md, a quoted answer in a handover) is
// never taken for a selection.

import (
	"regexp"

	"strconv"
	"strings"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/wire"
)

// turnContext is the plan of a turn as its prompt carries it.
type turnContext struct {
	found       bool // the prompt carries a plan
	mcp         bool // the turn may read more through agentero-context
	allowed     []source
	searchCards int // cards a search may return; 0 = not stated
	turnChars   int // characters all tool results of the turn may take; 0 = not stated
	evidence    []evidence
}

// source is one allowed source of the plan: a paper, directory or file.
type source struct {
	kind, ref string
}

// evidence is one card of the plan: a paper or file the user pointed at,
// with the text they selected on it, if any.
type evidence struct {
	kind, ref, title string
	page             int    // physical page of a selection; 0 = none
	citation         string // the card's citation URI, as given
	quote            string // the selected text; "" for a card without a selection
	cut              bool   // the quote was cut to fit the prompt
}

// selection reports whether the card carries text the user selected.
func (e evidence) selection() bool { return e.quote != "" }

const (
	planOpen  = wire.PlanOpen
	planClose = wire.PlanClose
)

var (
	cardHead   = regexp.MustCompile(`^\[(\d+)\] (paper|file) (.+)$`)
	titlePage  = regexp.MustCompile(`^(.*), page (\d+)(?: \(printed [^()]*\))?$`)
	allowedRow = regexp.MustCompile(`^- (paper|directory|file) (.+)$`)
	limitsCard = regexp.MustCompile(`^Limits: (\d+) cards a search\b`)
	limitsTurn = regexp.MustCompile(`\b(\d+) characters in all this turn\b`)
)

// parseTurn finds the plan among a prompt's text blocks and reads it. The
// host sends the plan as a block of its own, after the frozen snapshot; the
// last block that is exactly a plan wins. A host that joins everything into
// one block is read too: then the last plan found in the joined text wins.
func parseTurn(blocks []string) turnContext {
	for i := len(blocks) - 1; i >= 0; i-- {
		body := strings.TrimRight(blocks[i], "\n")
		if strings.HasPrefix(body, planOpen+"\n") && strings.HasSuffix(body, "\n"+planClose) {
			if tc := parsePlan(body[len(planOpen)+1 : len(body)-len(planClose)]); tc.found {
				return tc
			}
		}
	}
	lines := withoutGuidance(strings.Split(strings.Join(blocks, "\n"), "\n"))
	for end := len(lines) - 1; end >= 0; end-- {
		if lines[end] != planClose {
			continue
		}
		for start := end - 1; start >= 0; start-- {
			if lines[start] == planClose {
				break
			}
			if lines[start] == planOpen {
				if tc := parsePlan(strings.Join(lines[start+1:end], "\n") + "\n"); tc.found {
					return tc
				}
				break
			}
		}
	}
	return turnContext{}
}

// withoutGuidance blanks the vault's guidance in a prompt's lines (the
// frozen snapshot writes it between <vault-guidance file="…"> and
// </vault-guidance>): what the vault's AGENTS.md says is never the plan.
func withoutGuidance(lines []string) []string {
	out := make([]string, len(lines))
	in := false
	for i, l := range lines {
		switch {
		case !in && strings.HasPrefix(l, wire.GuidanceOpen):
			in = true
		case in && l == wire.GuidanceClose:
			in = false
		case !in:
			out[i] = l
		}
	}
	return out
}

// parsePlan reads the inside of a plan block. It returns found == false for
// text whose first line is not one the renderer writes.
func parsePlan(text string) turnContext {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var tc turnContext
	switch {
	case len(lines) == 0:
		return tc
	case strings.HasPrefix(lines[0], wire.PlanHeadMCP):
		tc.mcp = true
	case strings.HasPrefix(lines[0], wire.PlanHeadNoTools):
	default:
		return tc
	}
	tc.found = true
	i := 1
	// The head: allowed sources and limits, up to the first blank line.
	for ; i < len(lines) && lines[i] != ""; i++ {
		l := lines[i]
		if m := allowedRow.FindStringSubmatch(l); m != nil {
			tc.allowed = append(tc.allowed, source{m[1], m[2]})
		}
		if m := limitsCard.FindStringSubmatch(l); m != nil {
			tc.searchCards, _ = strconv.Atoi(m[1])
		}
		if m := limitsTurn.FindStringSubmatch(l); m != nil {
			tc.turnChars, _ = strconv.Atoi(m[1])
		}
	}
	// The cards: a head line, a source line, then an optional quote.
	for ; i < len(lines); i++ {
		m := cardHead.FindStringSubmatch(lines[i])
		if m == nil || i+1 >= len(lines) {
			continue
		}
		uri, ok := strings.CutPrefix(lines[i+1], wire.CardSource)
		if !ok || uri == "" {
			continue
		}
		cited, _ := citation.Parse(uri)
		ref, title := splitHead(m[3], cited.Path)
		e := evidence{kind: m[2], ref: ref, title: title, citation: uri}
		if cited.Page > 0 {
			e.page = cited.Page
			if t := titlePage.FindStringSubmatch(e.title); t != nil && t[2] == strconv.Itoa(cited.Page) {
				e.title = t[1]
			}
		}
		i += 2
		// The selection block: the only place a selection is taken from.
		if i < len(lines) && lines[i] == wire.SelectionHead {
			var q []string
			mark := strings.TrimRight(wire.SelectionLine, " ")
			for i++; i < len(lines) && strings.HasPrefix(lines[i], mark); i++ {
				l := strings.TrimPrefix(lines[i], mark)
				q = append(q, strings.TrimPrefix(l, " "))
			}
			if i < len(lines) && strings.HasPrefix(lines[i], wire.SelectionCut) {
				e.cut = true
				i++
			}
			e.quote = strings.TrimSpace(strings.Join(q, "\n"))
		}
		i-- // the loop steps to the line after the card
		tc.evidence = append(tc.evidence, e)
	}
	return tc
}

// splitHead splits "ref: title" of a card's head line. A ref may hold
// spaces and ": " (it is a folder name), so the ref is the part that the
// card's cited file (the path of its citation URI) starts with.
func splitHead(head, file string) (string, string) {
	first := -1
	for i := 0; ; {
		k := strings.Index(head[i:], ": ")
		if k < 0 {
			break
		}
		ref := head[:i+k]
		if first < 0 {
			first = i + k
		}
		if file == ref || strings.HasPrefix(file, ref+"/") {
			return ref, head[i+k+2:]
		}
		i += k + 2
	}
	if first < 0 {
		return head, ""
	}
	return head[:first], head[first+2:]
}

// selections returns the cards that carry selected text, in prompt order.
func (tc turnContext) selections() []evidence {
	var out []evidence
	for _, e := range tc.evidence {
		if e.selection() {
			out = append(out, e)
		}
	}
	return out
}

// papers returns the refs of the papers the user pointed at: the plan's
// paper cards, then its allowed papers, each once.
func (tc turnContext) papers() []string {
	seen := map[string]bool{}
	var out []string
	add := func(ref string) {
		if !seen[ref] {
			seen[ref] = true
			out = append(out, ref)
		}
	}
	for _, e := range tc.evidence {
		if e.kind == "paper" {
			add(e.ref)
		}
	}
	for _, s := range tc.allowed {
		if s.kind == "paper" {
			add(s.ref)
		}
	}
	return out
}
