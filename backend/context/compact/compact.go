// Package compact reduces the conversation history Agentero sends to an
// agent (a handover to a new session, a long conversation) so that it fits
// the agent's context window without silently dropping facts (SPEC §8.3).
// It never changes the transcript: it only computes what is sent.
//
// Tiers, each only when the estimate is still over its threshold:
//  1. snip: oversized tool results keep their head and tail, line numbers
//     and an explicit cut notice;
//  2. prune: the oldest whole turns become placeholders that keep the
//     user's words verbatim and say where the rest is;
//  3. summarize: the pruned turns are summarized by a separate call to the
//     conversation's agent into fixed sections, incrementally (the previous
//     summary plus the newly pruned turns). If that fails, prune-only is
//     kept and the result says so.
//
// The most recent turns (the tail guard) are always sent whole.
package compact

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Item is one thing that happened inside a turn besides the user's words
// and the answer.
type Item struct {
	Kind  string `json:"kind"`            // tool_call, tool_result, thought
	Tool  string `json:"tool,omitempty"`  // the tool's name
	Ref   string `json:"ref,omitempty"`   // what it read (paper ref, file, query)
	Range string `json:"range,omitempty"` // which part ("page 3 of 17", "chars 1–8000 of 23000")
	Text  string `json:"text,omitempty"`
}

// Turn is one whole turn of a conversation.
type Turn struct {
	ID        string   `json:"id"`
	User      string   `json:"user"`
	Items     []Item   `json:"items,omitempty"`
	Assistant string   `json:"assistant"`
	Sources   []string `json:"sources,omitempty"`
	Error     string   `json:"error,omitempty"`
	Line      int      `json:"line,omitempty"` // where the turn starts in transcript.jsonl (1-based)
}

// Options sets the window and the tiers. Zero values mean defaults.
type Options struct {
	Window      int     // the agent's context window in tokens; 0 = 200,000
	Budget      float64 // share of the window the history may use; 0 = 1 (the thresholds apply to it)
	Snip        float64 // 0 = 0.65
	Prune       float64 // 0 = 0.82
	Summarize   float64 // 0 = 0.95
	TailTurns   int     // most recent turns always sent whole; 0 = 4
	SnipChars   int     // tool results longer than this are snipped; 0 = 4000
	Transcript  string  // where the transcript is, for placeholders and the summary
	Summary     string  // the previous summary, if any
	SummarizedN int     // how many of the oldest turns the previous summary covers
}

func (o *Options) defaults() {
	if o.Window <= 0 {
		o.Window = 200_000
	}
	if o.Budget <= 0 || o.Budget > 1 {
		o.Budget = 1
	}
	if o.Snip <= 0 {
		o.Snip = 0.65
	}
	if o.Prune <= 0 {
		o.Prune = 0.82
	}
	if o.Summarize <= 0 {
		o.Summarize = 0.95
	}
	if o.TailTurns <= 0 {
		o.TailTurns = 4
	}
	if o.SnipChars <= 0 {
		o.SnipChars = 4000
	}
}

// Summarizer asks the conversation's agent for a summary, in a call of its
// own (not in the conversation's session).
type Summarizer interface {
	Summarize(ctx context.Context, prompt string) (string, error)
}

// Result is what would be sent and how it was reduced.
type Result struct {
	Tiers        []string `json:"tiers"`      // snip, prune, summarize — those applied
	Whole        []int    `json:"whole"`      // turn numbers (1-based) sent whole (maybe snipped)
	Pruned       []int    `json:"pruned"`     // turns sent as placeholders
	Summarized   []int    `json:"summarized"` // turns replaced by the summary
	Snipped      int      `json:"snipped"`    // tool results snipped
	TokensBefore int      `json:"tokensBefore"`
	TokensAfter  int      `json:"tokensAfter"`
	Window       int      `json:"window"`
	Limit        int      `json:"limit"` // tokens the history may use
	Notes        []string `json:"notes,omitempty"`
	Summary      string   `json:"summary,omitempty"`     // the summary now in force
	SummarizedN  int      `json:"summarizedN,omitempty"` // the oldest turns it covers
	Text         string   `json:"text"`                  // the history as sent
}

// Tokens estimates the tokens of a text: about four characters a token for
// English prose, which is what papers and answers mostly are.
func Tokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

// state is one turn's form in what is sent.
type state int

const (
	whole state = iota
	placeholder
	summarized
)

// Compact reduces turns to fit opts. sum may be nil: then the summarize tier
// cannot run and the result says so when it was needed.
func Compact(ctx context.Context, turns []Turn, opts Options, sum Summarizer) Result {
	opts.defaults()
	limit := int(float64(opts.Window) * opts.Budget)
	res := Result{Window: opts.Window, Limit: limit, Tiers: []string{}, Whole: []int{}, Pruned: []int{}, Summarized: []int{}}
	states := make([]state, len(turns))
	shown := make([]Turn, len(turns))
	copy(shown, turns)
	summary, summarizedN := opts.Summary, min(opts.SummarizedN, len(turns))
	for i := 0; i < summarizedN; i++ {
		states[i] = summarized
	}
	tail := max(0, len(turns)-opts.TailTurns)
	est := func() int { return Tokens(render(shown, states, summary, opts)) }
	res.TokensBefore = Tokens(render(turns, make([]state, len(turns)), "", opts))
	// Each tier fires when the full history passes its threshold; pruning
	// then goes on until what is sent is under the first threshold.
	fires := func(share float64) bool { return res.TokensBefore > int(float64(limit)*share) }
	over := func(share float64) bool { return est() > int(float64(limit)*share) }

	if fires(opts.Snip) {
		for i := range shown[:tail] {
			items := make([]Item, len(shown[i].Items))
			for j, it := range shown[i].Items {
				if it.Kind == "tool_result" && utf8.RuneCountInString(it.Text) > opts.SnipChars {
					it.Text = snip(it.Text, opts.SnipChars)
					res.Snipped++
				}
				items[j] = it
			}
			shown[i].Items = items
		}
		if res.Snipped > 0 {
			res.Tiers = append(res.Tiers, "snip")
		}
	}
	if fires(opts.Prune) {
		pruned := false
		for i := summarizedN; i < tail && over(opts.Snip); i++ {
			states[i] = placeholder
			pruned = true
		}
		if pruned {
			res.Tiers = append(res.Tiers, "prune")
		}
	}
	if fires(opts.Summarize) && hasPlaceholders(states) {
		var fresh []int
		for i, s := range states {
			if s == placeholder {
				fresh = append(fresh, i)
			}
		}
		if sum == nil {
			res.Notes = append(res.Notes, "summarizing was needed but no agent could be asked: kept pruned placeholders only")
		} else if newSummary, err := summarize(ctx, sum, summary, turns, fresh, opts); err != nil {
			res.Notes = append(res.Notes, "summarizing failed ("+oneLine(err.Error())+"): kept pruned placeholders only")
		} else {
			summary = newSummary
			// Placeholders are always the oldest turns after the previous
			// summary, so the summary keeps covering a prefix.
			for _, i := range fresh {
				states[i] = summarized
			}
			summarizedN = fresh[len(fresh)-1] + 1
			res.Tiers = append(res.Tiers, "summarize")
		}
	}
	for i, s := range states {
		switch s {
		case whole:
			res.Whole = append(res.Whole, i+1)
		case placeholder:
			res.Pruned = append(res.Pruned, i+1)
		case summarized:
			res.Summarized = append(res.Summarized, i+1)
		}
	}
	res.Text = render(shown, states, summary, opts)
	res.TokensAfter = Tokens(res.Text)
	res.Summary, res.SummarizedN = summary, summarizedN
	if res.TokensAfter > limit {
		res.Notes = append(res.Notes, fmt.Sprintf("the history is still about %d tokens, over the %d the window allows: the most recent turns are kept whole regardless", res.TokensAfter, limit))
	}
	return res
}

func hasPlaceholders(states []state) bool {
	for _, s := range states {
		if s == placeholder {
			return true
		}
	}
	return false
}

// snip keeps the head and tail of a long tool result, with line numbers and
// a notice of what was cut.
func snip(text string, max int) string {
	lines := strings.Split(text, "\n")
	headBudget, tailBudget := max*6/10, max*3/10
	var head, tailLines []int
	n := 0
	for i := range lines {
		if n+len(lines[i]) > headBudget && len(head) > 0 {
			break
		}
		n += len(lines[i]) + 1
		head = append(head, i)
	}
	n = 0
	for i := len(lines) - 1; i > head[len(head)-1]; i-- {
		if n+len(lines[i]) > tailBudget && len(tailLines) > 0 {
			break
		}
		n += len(lines[i]) + 1
		tailLines = append([]int{i}, tailLines...)
	}
	var b strings.Builder
	for _, i := range head {
		fmt.Fprintf(&b, "%5d | %s\n", i+1, cut(lines[i], headBudget))
	}
	first, last := head[len(head)-1]+2, len(lines)
	if len(tailLines) > 0 {
		last = tailLines[0]
	}
	fmt.Fprintf(&b, "[cut: lines %d–%d of %d omitted to save space; the transcript has them whole]\n", first, last, len(lines))
	for _, i := range tailLines {
		fmt.Fprintf(&b, "%5d | %s\n", i+1, cut(lines[i], tailBudget))
	}
	return b.String()
}

func cut(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max]) + " [line cut]"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
