package agent

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/agentero/agentero/backend/context/wire"
	"github.com/agentero/agentero/backend/text"
)

// The request's format is wire's (backend/context/compact writes it).
var (
	turnLine    = regexp.MustCompile(`(?m)^` + strings.Replace(regexp.QuoteMeta(wire.TurnHead), "%d", `(\d+)`, 1) + `$`)
	sourcesLine = regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(wire.SourcesPrefix) + `(.*)\)$`)
	failedLine  = regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(wire.FailedPrefix) + `(.*)\)$`)
)

// summarize answers a compaction request from the host without a model: an
// extractive summary in the fixed sections, merged with the previous one.
func summarize(prompt string) string {
	prev := between(prompt, wire.PreviousOpen+"\n", "\n"+wire.PreviousClose)
	body := between(prompt, wire.TurnsOpen+"\n", wire.TurnsClose)
	type turnInfo struct {
		n            string
		user, answer string
		sources      []string
		failed       string
	}
	var turns []turnInfo
	locs := turnLine.FindAllStringSubmatchIndex(body, -1)
	for i, loc := range locs {
		end := len(body)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		chunk := body[loc[1]:end]
		t := turnInfo{n: body[loc[2]:loc[3]]}
		t.user = strings.TrimSpace(between(chunk, wire.UserPrefix, "\n"))
		t.answer = strings.TrimSpace(between(chunk, wire.AssistantPrefix, "\n"))
		if m := sourcesLine.FindStringSubmatch(chunk); m != nil {
			t.sources = strings.Split(m[1], ", ")
		}
		if m := failedLine.FindStringSubmatch(chunk); m != nil {
			t.failed = m[1]
		}
		turns = append(turns, t)
	}
	papers := map[string]bool{}
	for _, line := range strings.Split(section(prev, wire.Sections[wire.SectionPapers]), "\n") {
		if l := strings.TrimPrefix(strings.TrimSpace(line), "- "); l != "" && l != "none" {
			papers[l] = true
		}
	}
	words := map[string]int{}
	for _, t := range turns {
		for _, s := range t.sources {
			papers[s] = true
		}
		for _, w := range text.Words(keywords(t.user)) {
			if len(w) > 3 {
				words[w]++
			}
		}
	}
	var b strings.Builder
	add := func(head, text string) {
		fmt.Fprintf(&b, "## %s\n%s\n\n", head, strings.TrimSpace(text))
	}
	intent := section(prev, "Intent")
	if len(turns) > 0 {
		intent = strings.TrimSpace(intent + fmt.Sprintf("\nTurns %s–%s: the user asked about their papers, starting with %q.", turns[0].n, turns[len(turns)-1].n, turns[0].user))
	}
	add(wire.Sections[0], intent)
	add(wire.Sections[1], strings.TrimSpace(section(prev, "Key concepts")+"\n"+strings.Join(topWords(words, 12), ", ")))
	add(wire.Sections[2], bullets(papers))
	var errs []string
	if e := section(prev, "Errors and fixes"); e != "" && e != "none" {
		errs = append(errs, e)
	}
	var solving []string
	if p := section(prev, "Problem solving"); p != "" {
		solving = append(solving, p)
	}
	for _, t := range turns {
		if t.failed != "" {
			errs = append(errs, fmt.Sprintf("- Turn %s failed: %s", t.n, t.failed))
		}
		solving = append(solving, fmt.Sprintf("- Turn %s: %s", t.n, shorten(t.answer, 160)))
	}
	if len(errs) == 0 {
		errs = []string{"none"}
	}
	add(wire.Sections[3], strings.Join(errs, "\n"))
	add(wire.Sections[4], strings.Join(solving, "\n"))
	add(wire.Sections[5], "(kept verbatim by Agentero)")
	add(wire.Sections[6], "none recorded")
	current := "none"
	if len(turns) > 0 {
		current = fmt.Sprintf("Up to turn %s: %q", turns[len(turns)-1].n, turns[len(turns)-1].user)
	}
	add(wire.Sections[7], current)
	where := "Earlier turns are kept in the conversation's transcript."
	if strings.Contains(prompt, wire.HistoryLine) {
		where = wire.HistoryLine
	}
	add(wire.Sections[wire.SectionTranscript], where)
	return b.String()
}

func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	s = s[i+len(start):]
	if j := strings.Index(s, end); j >= 0 {
		return s[:j]
	}
	return s
}

func section(summary, head string) string {
	body := between(summary, "## "+head+"\n", "\n## ")
	return strings.TrimSpace(body)
}

func bullets(set map[string]bool) string {
	if len(set) == 0 {
		return "none"
	}
	var keys []string
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return "- " + strings.Join(keys, "\n- ")
}

func topWords(counts map[string]int, n int) []string {
	var ws []string
	for w := range counts {
		ws = append(ws, w)
	}
	sort.Slice(ws, func(i, j int) bool {
		if counts[ws[i]] != counts[ws[j]] {
			return counts[ws[i]] > counts[ws[j]]
		}
		return ws[i] < ws[j]
	})
	if len(ws) > n {
		ws = ws[:n]
	}
	return ws
}

func shorten(s string, n int) string {
	s = oneLine(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
