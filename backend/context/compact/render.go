package compact

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/wire"
)

// render writes the history as it is sent: the summary, placeholders for
// pruned turns, and the turns kept whole with their tool results formatted
// for the model.
func render(v *view) string {
	var b strings.Builder
	b.WriteString("<conversation-so-far>\nThis conversation began before this session. What was said so far:\n")
	if has(v.states, placeholder) || has(v.states, summarized) {
		if v.opts.HistoryTool {
			b.WriteString(wire.HistoryLine + "\n")
		} else {
			b.WriteString("Earlier turns are summarized or pruned below; their full text is not readable in this session.\n")
		}
	}
	if v.summary != "" {
		b.WriteString("\n<summary of earlier turns>\n")
		b.WriteString(strings.TrimSpace(v.summary))
		b.WriteString("\n</summary of earlier turns>\n")
	}
	for i := 0; i < len(v.turns); i++ {
		t := v.turns[i]
		switch v.states[i] {
		case summarized, cleared:
			continue
		case placeholder:
			if v.details[i] == bare {
				j := i
				for j+1 < len(v.turns) && v.states[j+1] == placeholder && v.details[j+1] == bare {
					j++
				}
				where := "not readable in this session"
				if v.opts.HistoryTool {
					where = "read them with context_history"
				}
				if j == i {
					fmt.Fprintf(&b, "\n[Turn %d was pruned; %s.]\n", i+1, strings.Replace(where, "them", "it", 1))
				} else {
					fmt.Fprintf(&b, "\n[Turns %d–%d were pruned; %s.]\n", i+1, j+1, where)
				}
				i = j
				continue
			}
			if v.details[i] == short {
				fmt.Fprintf(&b, "\n[Turn %d pruned; the user asked, verbatim: %q]\n", i+1, t.User)
				continue
			}
			fmt.Fprintf(&b, "\n[Turn %d was pruned to save space. The user asked, verbatim: %q", i+1, t.User)
			fmt.Fprintf(&b, " The answer (%d characters", utf8.RuneCountInString(t.Assistant))
			if len(t.Sources) > 0 {
				fmt.Fprintf(&b, ", citing %s", strings.Join(t.Sources, ", "))
			}
			if v.opts.HistoryTool {
				fmt.Fprintf(&b, ") can be read whole with context_history (turn %d).]\n", i+1)
			} else {
				b.WriteString(") is not readable in this session.]\n")
			}
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
		if strings.Contains(it.Text, "[cut: lines ") || strings.HasPrefix(it.Text, "[left out to fit the window") {
			b.WriteString(strings.TrimRight(it.Text, "\n") + "\n")
		} else {
			for i, line := range strings.Split(strings.TrimRight(it.Text, "\n"), "\n") {
				fmt.Fprintf(&b, "%5d | %s\n", i+1, line)
			}
		}
		b.WriteString("[end of tool result]\n")
	}
	return b.String()
}

// Sections are the fixed headings of a summary (wire.Sections).
var Sections = wire.Sections

// SummaryMarker starts every summarization prompt (wire.SummaryMarker).
const SummaryMarker = wire.SummaryMarker

// summarize asks for an updated summary: the previous one plus the newly
// pruned turns only. The answer must carry every fixed section; the user
// messages section is then replaced by the verbatim messages themselves, so
// the user's words never depend on the agent's care.
func summarize(ctx context.Context, sum Summarizer, previous string, turns []Turn, fresh []int, opts Options) (string, error) {
	var b strings.Builder
	b.WriteString(wire.SummaryMarker + "\n")
	b.WriteString("Update the summary of a research conversation so that it can replace the turns below. ")
	b.WriteString("Answer with exactly these Markdown sections, in this order:\n")
	for _, s := range wire.Sections {
		fmt.Fprintf(&b, "## %s\n", s)
	}
	b.WriteString("Keep every paper, page and citation location that was used. Quote the user's messages verbatim.\n")
	if previous != "" {
		b.WriteString("\n" + wire.PreviousOpen + "\n" + strings.TrimSpace(previous) + "\n" + wire.PreviousClose + "\n")
	}
	b.WriteString("\n" + wire.TurnsOpen + "\n")
	for _, i := range fresh {
		t := turns[i]
		fmt.Fprintf(&b, "\n"+wire.TurnHead+"\n%s%s\n", i+1, wire.UserPrefix, t.User)
		for _, it := range t.Items {
			text := it.Text
			if it.Kind == "tool_result" && utf8.RuneCountInString(text) > opts.SnipChars {
				text = snip(text, opts.SnipChars, wholeAt(i+1, opts.HistoryTool))
			}
			b.WriteString(formatItem(Item{Kind: it.Kind, Tool: it.Tool, Ref: it.Ref, Range: it.Range, Text: text}))
		}
		fmt.Fprintf(&b, "%s%s\n", wire.AssistantPrefix, t.Assistant)
		if len(t.Sources) > 0 {
			fmt.Fprintf(&b, "%s%s)\n", wire.SourcesPrefix, strings.Join(t.Sources, ", "))
		}
		if t.Error != "" {
			fmt.Fprintf(&b, "%s%s)\n", wire.FailedPrefix, t.Error)
		}
	}
	b.WriteString(wire.TurnsClose + "\n")
	if opts.HistoryTool {
		b.WriteString(wire.HistoryLine + "\n")
	}
	out, err := sum.Summarize(ctx, b.String())
	if err != nil {
		return "", err
	}
	for _, s := range wire.Sections {
		if !strings.Contains(out, "## "+s) {
			return "", fmt.Errorf("the summary lacks the section %q", s)
		}
	}
	return withVerbatimUsers(out, previous, turns, fresh), nil
}

// withVerbatimUsers rewrites the user-messages section: the messages kept
// by the previous summary, then those of the newly summarized turns, each
// exactly as the user wrote it.
func withVerbatimUsers(summary, previous string, turns []Turn, fresh []int) string {
	head := "## " + wire.Sections[wire.SectionUsers]
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

// part is one "## " section of a summary (the head "" for text before the
// first).
type part struct{ head, body string }

func parts(summary string) []part {
	var out []part
	cur := part{}
	for _, line := range strings.Split(summary, "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			out = append(out, cur)
			cur = part{head: strings.TrimSpace(h)}
			continue
		}
		cur.body += line + "\n"
	}
	out = append(out, cur)
	if strings.TrimSpace(out[0].body) == "" {
		out = out[1:]
	}
	return out
}

func join(ps []part) string {
	var b strings.Builder
	for _, p := range ps {
		if p.head != "" {
			b.WriteString("## " + p.head + "\n")
		}
		b.WriteString(strings.TrimSpace(p.body) + "\n")
	}
	return b.String()
}

// tidySummary puts a summary in the form it is sent: papers and files
// touched one line a paper with its pages as ranges, the transcript
// location pointing at context_history (never at a file no tool may read),
// and, with capChars > 0, each section but the users' words capped.
func tidySummary(summary string, tool bool, summarizedN, capChars int) string {
	ps := parts(summary)
	for i := range ps {
		switch ps[i].head {
		case wire.Sections[wire.SectionPapers]:
			ps[i].body = collapsePapers(ps[i].body)
		case wire.Sections[wire.SectionTranscript]:
			if summarizedN > 0 {
				if tool {
					ps[i].body = fmt.Sprintf("Turns 1–%d are summarized here; read any of them whole with the context_history tool (by turn number).", summarizedN)
				} else {
					ps[i].body = fmt.Sprintf("Turns 1–%d are summarized here; their full text is not readable in this session.", summarizedN)
				}
			}
		}
		if capChars > 0 && ps[i].head != wire.Sections[wire.SectionUsers] && utf8.RuneCountInString(ps[i].body) > capChars {
			r := []rune(strings.TrimSpace(ps[i].body))
			ps[i].body = string(r[:min(len(r), capChars)]) + " [section cut to fit the window]"
		}
	}
	return join(ps)
}

var pageRange = regexp.MustCompile(`^(.*?): pages? ([0-9–, ]+)$`)

// pageCited reads a line that is a citation of a page (or starts with
// one): the file's citation without a page, and the page.
func pageCited(l string) (string, int, bool) {
	u, err := citation.Parse(l)
	if err != nil {
		first, _, _ := strings.Cut(l, " ")
		if u, err = citation.Parse(first); err != nil {
			return "", 0, false
		}
	}
	if u.External() || u.Page == 0 {
		return "", 0, false
	}
	return citation.New(u.Path, 0, "").String(), u.Page, true
}

// collapsePapers writes a list of citation locations one line a paper or
// file: "papers/x/paper.pdf: pages 1–3, 7". Lines that are not locations
// are kept once each.
func collapsePapers(body string) string {
	pages := map[string][]int{}
	var order []string
	var other []string
	seen := map[string]bool{}
	for _, line := range strings.Split(body, "\n") {
		l := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		if l == "" || l == "none" {
			continue
		}
		if m := pageRange.FindStringSubmatch(l); m != nil {
			if _, ok := pages[m[1]]; !ok {
				order = append(order, m[1])
			}
			for _, r := range strings.Split(m[2], ", ") {
				from, to, _ := strings.Cut(r, "–")
				a, _ := strconv.Atoi(from)
				b, err := strconv.Atoi(to)
				if err != nil {
					b = a
				}
				for n := a; n <= b && n-a < 100000; n++ {
					pages[m[1]] = append(pages[m[1]], n)
				}
			}
			continue
		}
		if file, n, ok := pageCited(l); ok {
			if _, ok := pages[file]; !ok {
				order = append(order, file)
			}
			pages[file] = append(pages[file], n)
			continue
		}
		if !seen[l] {
			seen[l] = true
			other = append(other, l)
		}
	}
	var out []string
	for _, p := range order {
		out = append(out, "- "+p+": "+ranges(pages[p]))
	}
	for _, l := range other {
		if _, ok := pages[l]; !ok {
			out = append(out, "- "+l)
		}
	}
	if len(out) == 0 {
		return "none\n"
	}
	return strings.Join(out, "\n") + "\n"
}

// ranges writes page numbers as "page 3" or "pages 1–3, 7".
func ranges(ns []int) string {
	sort.Ints(ns)
	var rs []string
	count := 0
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] <= ns[j]+1 {
			j++
		}
		if ns[i] == ns[j] {
			rs = append(rs, strconv.Itoa(ns[i]))
		} else {
			rs = append(rs, fmt.Sprintf("%d–%d", ns[i], ns[j]))
		}
		count++
		i = j + 1
	}
	if len(rs) == 1 && !strings.Contains(rs[0], "–") {
		return "page " + rs[0]
	}
	return "pages " + strings.Join(rs, ", ")
}

// usersOnly keeps a summary's users' words and where turns can be read.
func usersOnly(summary string) string {
	var keep []part
	for _, p := range parts(summary) {
		if p.head == wire.Sections[wire.SectionUsers] || p.head == wire.Sections[wire.SectionTranscript] {
			keep = append(keep, p)
		}
	}
	return join(keep) + "(the summary's other sections were left out to fit the window)\n"
}

var leftOut = regexp.MustCompile(`^- \((\d+) earlier user messages left out to fit the window\)$`)

// dropOldestUser removes the oldest verbatim user message of a summary,
// counting what was left out. It reports false when none is left.
func dropOldestUser(summary string) (string, bool) {
	ps := parts(summary)
	for i := range ps {
		if ps[i].head != wire.Sections[wire.SectionUsers] {
			continue
		}
		lines := strings.Split(strings.TrimSpace(ps[i].body), "\n")
		dropped := 0
		var rest []string
		removed := false
		for _, l := range lines {
			if m := leftOut.FindStringSubmatch(l); m != nil {
				dropped, _ = strconv.Atoi(m[1])
				continue
			}
			if !removed && strings.HasPrefix(l, "- Turn ") {
				removed = true
				dropped++
				continue
			}
			rest = append(rest, l)
		}
		if !removed {
			return summary, false
		}
		ps[i].body = strings.Join(append([]string{fmt.Sprintf("- (%d earlier user messages left out to fit the window)", dropped)}, rest...), "\n")
		return join(ps), true
	}
	return summary, false
}

// ErrNoSummary is what a Summarizer returns when its agent cannot summarize.
var ErrNoSummary = errors.New("the agent cannot summarize")
