package compact

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// render writes the history as it is sent: the summary, placeholders for
// pruned turns, and the turns kept whole with their tool results formatted
// for the model.
func render(turns []Turn, states []state, summary string, opts Options) string {
	var b strings.Builder
	b.WriteString("<conversation-so-far>\nThis conversation began before this session. What was said so far:\n")
	if summary != "" {
		b.WriteString("\n<summary of earlier turns>\n")
		b.WriteString(strings.TrimSpace(summary))
		b.WriteString("\n</summary of earlier turns>\n")
	}
	for i, t := range turns {
		switch states[i] {
		case summarized:
			continue
		case placeholder:
			fmt.Fprintf(&b, "\n[Turn %d was pruned to save space. The user asked, verbatim: %q", i+1, t.User)
			fmt.Fprintf(&b, " The answer (%d characters", len([]rune(t.Assistant)))
			if len(t.Sources) > 0 {
				fmt.Fprintf(&b, ", citing %s", strings.Join(t.Sources, ", "))
			}
			b.WriteString(") is in the transcript")
			if opts.Transcript != "" {
				fmt.Fprintf(&b, " (%s", opts.Transcript)
				if t.Line > 0 {
					fmt.Fprintf(&b, ", line %d", t.Line)
				}
				b.WriteString(")")
			}
			b.WriteString(".]\n")
		default:
			fmt.Fprintf(&b, "\nUser: %s\n", strings.TrimSpace(t.User))
			for _, it := range t.Items {
				b.WriteString(formatItem(it))
			}
			if t.Assistant != "" {
				fmt.Fprintf(&b, "Assistant: %s\n", strings.TrimSpace(t.Assistant))
			}
			if len(t.Sources) > 0 {
				fmt.Fprintf(&b, "(sources: %s)\n", strings.Join(t.Sources, ", "))
			}
			if t.Error != "" {
				fmt.Fprintf(&b, "(this turn failed: %s)\n", t.Error)
			}
		}
	}
	b.WriteString("</conversation-so-far>\n")
	return b.String()
}

// formatItem shows a tool call or result to the model: a header naming the
// tool, what it read and which part, then line-numbered text (a snipped
// result is already numbered and carries its cut notice).
func formatItem(it Item) string {
	var b strings.Builder
	switch it.Kind {
	case "tool_call":
		fmt.Fprintf(&b, "[tool call %s", it.Tool)
		if it.Ref != "" {
			fmt.Fprintf(&b, " · %s", it.Ref)
		}
		b.WriteString("]\n")
	case "tool_result":
		fmt.Fprintf(&b, "[tool result %s", it.Tool)
		if it.Ref != "" {
			fmt.Fprintf(&b, " · %s", it.Ref)
		}
		if it.Range != "" {
			fmt.Fprintf(&b, " · %s", it.Range)
		}
		b.WriteString("]\n")
		if strings.Contains(it.Text, "[cut: lines ") {
			b.WriteString(it.Text)
		} else {
			for i, line := range strings.Split(strings.TrimRight(it.Text, "\n"), "\n") {
				fmt.Fprintf(&b, "%5d | %s\n", i+1, line)
			}
		}
		b.WriteString("[end of tool result]\n")
	}
	return b.String()
}

// Sections are the fixed headings of a summary.
var Sections = []string{
	"Intent", "Key concepts", "Papers and files touched", "Errors and fixes", "Problem solving",
	"All user messages (verbatim)", "Pending tasks", "Current work", "Transcript location",
}

// SummaryMarker starts every summarization prompt, so that an agent (the
// built-in one) can tell the request apart from a question.
const SummaryMarker = "<agentero-summarize>"

// summarize asks for an updated summary: the previous one plus the newly
// pruned turns only. The answer must carry every fixed section; the user
// messages section is then replaced by the verbatim messages themselves, so
// the user's words never depend on the agent's care.
func summarize(ctx context.Context, sum Summarizer, previous string, turns []Turn, fresh []int, opts Options) (string, error) {
	var b strings.Builder
	b.WriteString(SummaryMarker + "\n")
	b.WriteString("Update the summary of a research conversation so that it can replace the turns below. ")
	b.WriteString("Answer with exactly these Markdown sections, in this order:\n")
	for _, s := range Sections {
		fmt.Fprintf(&b, "## %s\n", s)
	}
	b.WriteString("Keep every paper, page and citation location that was used. Quote the user's messages verbatim.\n")
	if previous != "" {
		b.WriteString("\n<previous summary>\n" + strings.TrimSpace(previous) + "\n</previous summary>\n")
	}
	b.WriteString("\n<turns to add>\n")
	for _, i := range fresh {
		t := turns[i]
		fmt.Fprintf(&b, "\nTurn %d\nUser: %s\n", i+1, t.User)
		for _, it := range t.Items {
			b.WriteString(formatItem(Item{Kind: it.Kind, Tool: it.Tool, Ref: it.Ref, Range: it.Range, Text: snipIfLong(it, opts.SnipChars)}))
		}
		fmt.Fprintf(&b, "Assistant: %s\n", t.Assistant)
		if len(t.Sources) > 0 {
			fmt.Fprintf(&b, "(sources: %s)\n", strings.Join(t.Sources, ", "))
		}
		if t.Error != "" {
			fmt.Fprintf(&b, "(failed: %s)\n", t.Error)
		}
	}
	b.WriteString("</turns to add>\n")
	if opts.Transcript != "" {
		fmt.Fprintf(&b, "The full transcript is at %s.\n", opts.Transcript)
	}
	out, err := sum.Summarize(ctx, b.String())
	if err != nil {
		return "", err
	}
	for _, s := range Sections {
		if !strings.Contains(out, "## "+s) {
			return "", fmt.Errorf("the summary lacks the section %q", s)
		}
	}
	return withVerbatimUsers(out, previous, turns, fresh), nil
}

func snipIfLong(it Item, max int) string {
	if it.Kind == "tool_result" && len([]rune(it.Text)) > max {
		return snip(it.Text, max)
	}
	return it.Text
}

// withVerbatimUsers rewrites the user-messages section: the messages kept
// by the previous summary, then those of the newly summarized turns, each
// exactly as the user wrote it.
func withVerbatimUsers(summary, previous string, turns []Turn, fresh []int) string {
	const head = "## All user messages (verbatim)"
	var msgs []string
	if prev := section(previous, head); prev != "" {
		msgs = append(msgs, prev)
	}
	for _, i := range fresh {
		msgs = append(msgs, fmt.Sprintf("- Turn %d: %q", i+1, turns[i].User))
	}
	start := strings.Index(summary, head)
	rest := summary[start+len(head):]
	end := strings.Index(rest, "\n## ")
	tail := ""
	if end >= 0 {
		tail = rest[end:]
	}
	return summary[:start] + head + "\n" + strings.Join(msgs, "\n") + "\n" + tail
}

// section returns the body of a "## " section of a summary.
func section(summary, head string) string {
	i := strings.Index(summary, head)
	if i < 0 {
		return ""
	}
	body := summary[i+len(head):]
	if j := strings.Index(body, "\n## "); j >= 0 {
		body = body[:j]
	}
	return strings.TrimSpace(body)
}

// ErrNoSummary is what a Summarizer returns when its agent cannot summarize.
var ErrNoSummary = errors.New("the agent cannot summarize")
