package plan

import (
	"fmt"
	"strings"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/wire"
)

// Render writes a plan as the context part of a turn's prompt. The same plan
// always gives the same bytes: nothing here depends on time, map order or
// the machine.
func (p *Plan) Render() string {
	var b strings.Builder
	b.WriteString(wire.PlanOpen + "\n")
	switch p.Mode {
	case grant.ModeMCP:
		b.WriteString(wire.PlanHeadMCP + ", but only these sources, through the agentero-context tools (")
		b.WriteString(strings.Join(p.Tools, ", "))
		b.WriteString("):\n")
		for _, s := range p.Allowed {
			fmt.Fprintf(&b, "- %s %s\n", s.Kind, s.Ref)
		}
		fmt.Fprintf(&b, "Limits: %d cards a search (%d a paper), excerpts of %d characters, page/section/file/full reads of %d characters, %d names a folder listing, %d characters in all this turn. Cut results say how to continue.\n",
			p.Budget.SearchCards, p.Budget.CardsPerPaper, p.Budget.ExcerptChars, p.Budget.FullChars, p.Budget.DirEntries, p.Budget.TurnChars)
		b.WriteString("Anything else in the vault is not readable in this turn; do not try other paths.\n")
	default:
		b.WriteString(wire.PlanHeadNoTools + ": no tools are attached, and you must not assume you can open, search or expand anything beyond what is written here. ")
		if len(p.Evidence) > 0 {
			b.WriteString("Answer from the evidence below and say plainly what you would need to see.\n")
		} else {
			b.WriteString("If the question needs the user's papers, say so and ask them to open a paper or @-mention what you should read.\n")
		}
	}
	if len(p.Evidence) == 0 {
		b.WriteString("\nThe user pointed at nothing in the vault for this turn.\n")
	} else {
		b.WriteString("\nEvidence the user pointed at:\n")
	}
	for i, c := range p.Evidence {
		fmt.Fprintf(&b, "\n[%d] %s %s: %s", i+1, c.Kind, c.Ref, oneLine(c.Title))
		if c.Page > 0 {
			fmt.Fprintf(&b, ", page %d", c.Page)
			if c.PageLabel != "" && c.PageLabel != fmt.Sprint(c.Page) {
				fmt.Fprintf(&b, " (printed %s)", c.PageLabel)
			}
		}
		fmt.Fprintf(&b, "\n%s%s\n", wire.CardSource, c.CitationURI)
		if c.Quote != "" {
			// The selection block (wire): the built-in agent takes the
			// user's selection from here only.
			b.WriteString(wire.SelectionHead + "\n")
			for _, line := range strings.Split(c.Quote, "\n") {
				fmt.Fprintf(&b, "%s%s\n", wire.SelectionLine, line)
			}
			if c.Cut {
				if p.Mode == grant.ModeMCP {
					fmt.Fprintf(&b, "%s%d characters; read the rest with context_read)\n", wire.SelectionCut, MaxQuoteChars)
				} else {
					fmt.Fprintf(&b, "%s%d characters; the rest is not available in this turn)\n", wire.SelectionCut, MaxQuoteChars)
				}
			}
		}
		if c.Section != "" {
			// after the selection block, which must follow the source line
			fmt.Fprintf(&b, "    section: %s\n", oneLine(c.Section))
		}
	}
	if len(p.Evidence) > 0 || p.Mode == grant.ModeMCP {
		b.WriteString("\nEnd your answer with the sources you used, each as its source location exactly as given (for example papers/x/paper.pdf#page=3).\n")
	}
	b.WriteString(wire.PlanClose + "\n")
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
