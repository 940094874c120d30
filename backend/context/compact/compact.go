// Package compact reduces the conversation history Agentero sends to an
// agent (a handover to a new session, a long conversation) so that it fits
// the agent's context window without silently dropping facts (SPEC §8.3).
// It never changes the transcript: it only computes what is sent.
//
// Tiers, each when the whole prompt (the history plus what the rest of the
// prompt reserves) passes its share of the agent's whole context window:
//  1. snip: oversized tool results keep their head and tail, line numbers
//     and an explicit cut notice;
//  2. prune: the oldest whole turns become placeholders that keep the
//     user's words verbatim and point at the turn by number
//     (context_history);
//  3. summarize: the pruned turns are summarized by a separate call to the
//     conversation's agent into fixed sections, incrementally (the previous
//     summary plus the newly pruned turns). If that fails, prune-only is
//     kept and the result says so.
//  4. fit: if what is sent is still over the window, in order: cap the
//     summary's sections, shrink the tail guard down to the last turn, snip
//     the last turn's tool results and answer, shorten placeholders, and
//     only then let go of the oldest users' words; last of all the last
//     turn itself is snipped. Every cut is marked. What is sent always fits.
//
// The most recent turns (the tail guard) are sent whole while they fit: 4
// turns below the prune threshold, 3 below the summarize one, 2 above it,
// fewer while they alone would take more than half the history's room.
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
	Window int // the agent's whole context window in tokens; 0 = 200,000
	// Reserve is what the rest of the prompt takes (frozen snapshot, plan,
	// question) and room for the answer, in tokens: the tiers are taken
	// against the whole window with it counted, and the history gets the
	// rest (at least a quarter of the window).
	Reserve   int
	Snip      float64 // 0 = 0.65
	Prune     float64 // 0 = 0.82
	Summarize float64 // 0 = 0.95
	TailTurns int     // at most this many recent turns are guarded; 0 = by the token level (4, 3, 2)
	SnipChars int     // tool results longer than this are snipped; 0 = 4000
	// HistoryTool says the session can call context_history: placeholders
	// and the summary then point at turns through it. Without it they say
	// the turn is not readable in this session.
	HistoryTool bool
	Summary     string // the previous summary, if any
	SummarizedN int    // how many of the oldest turns the previous summary covers
	// Cleared is how many of the oldest turns the user cleared (/clear):
	// they are not sent at all (the transcript keeps them).
	Cleared int
}

func (o *Options) defaults() {
	if o.Window <= 0 {
		o.Window = 200_000
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
	Tiers        []string `json:"tiers"`      // snip, prune, summarize, fit — those applied
	Whole        []int    `json:"whole"`      // turn numbers (1-based) sent whole (maybe snipped)
	Pruned       []int    `json:"pruned"`     // turns sent as placeholders
	Summarized   []int    `json:"summarized"` // turns replaced by the summary
	Snipped      int      `json:"snipped"`    // tool results snipped
	TailGuard    int      `json:"tailGuard"`  // recent turns guarded at the start (the fit tier may shrink it)
	TokensBefore int      `json:"tokensBefore"`
	TokensAfter  int      `json:"tokensAfter"`
	Window       int      `json:"window"`
	Reserve      int      `json:"reserve"`
	Limit        int      `json:"limit"` // tokens the history may use: the window less the reserve
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
	cleared // before a /clear: not sent
)

// detail is how much a placeholder says.
type detail int

const (
	full  detail = iota // the user's words, the answer's size and sources
	short               // the user's words only
	bare                // the turn number only, in a range of such turns
)

// view is what is sent, as it is being reduced.
type view struct {
	turns   []Turn // the turns as shown (snipped copies)
	states  []state
	details []detail
	summary string
	opts    Options
}

func (v *view) text() string { return render(v) }
func (v *view) tokens() int  { return Tokens(render(v)) }
func (v *view) setWhole() []int {
	var out []int
	for i, s := range v.states {
		if s == whole {
			out = append(out, i)
		}
	}
	return out
}

// Compact reduces turns to fit opts. sum may be nil: then the summarize tier
// cannot run and the result says so when it was needed.
func Compact(ctx context.Context, turns []Turn, opts Options, sum Summarizer) Result {
	opts.defaults()
	reserve := max(0, opts.Reserve)
	limit := opts.Window - reserve
	res := Result{Window: opts.Window, Reserve: reserve, Tiers: []string{}, Whole: []int{}, Pruned: []int{}, Summarized: []int{}}
	if limit < opts.Window/4 {
		limit = opts.Window / 4
		res.Notes = append(res.Notes, fmt.Sprintf("the rest of the prompt takes about %d tokens of a %d-token window: the history keeps a quarter of the window", reserve, opts.Window))
	}
	res.Limit = limit
	v := &view{turns: make([]Turn, len(turns)), states: make([]state, len(turns)), details: make([]detail, len(turns)), opts: opts}
	copy(v.turns, turns)
	res.TokensBefore = v.tokens()
	clearedN := min(max(0, opts.Cleared), len(turns))
	summarizedN := min(opts.SummarizedN, len(turns))
	if summarizedN > clearedN && opts.Summary != "" {
		v.summary = tidySummary(opts.Summary, opts.HistoryTool, summarizedN, 0)
		for i := 0; i < summarizedN; i++ {
			v.states[i] = summarized
		}
	} else {
		summarizedN = clearedN
		opts.Summary = ""
	}
	for i := 0; i < clearedN; i++ {
		v.states[i] = cleared
	}
	if clearedN > 0 {
		res.TokensBefore = v.tokens()
	}
	level := float64(reserve+res.TokensBefore) / float64(opts.Window)
	fires := func(share float64) bool { return level > share }
	over := func(share float64) bool { return reserve+v.tokens() > int(float64(opts.Window)*share) }

	tailN := 4
	switch {
	case level >= opts.Summarize:
		tailN = 2
	case level >= opts.Prune:
		tailN = 3
	}
	if opts.TailTurns > 0 {
		tailN = min(tailN, opts.TailTurns)
	}
	tailN = min(tailN, len(turns))
	for tailN > 1 && tailTokens(turns[len(turns)-tailN:], opts) > limit/2 {
		tailN--
	}
	res.TailGuard = tailN
	tail := len(turns) - tailN

	if fires(opts.Snip) {
		for i := range v.turns[:tail] {
			if n := snipTurn(&v.turns[i], i+1, opts.SnipChars, opts.HistoryTool); n > 0 {
				res.Snipped += n
			}
		}
		if res.Snipped > 0 {
			res.Tiers = append(res.Tiers, "snip")
		}
	}
	if fires(opts.Prune) {
		pruned := false
		for i := summarizedN; i < tail && over(opts.Snip); i++ {
			v.states[i] = placeholder
			pruned = true
		}
		if pruned {
			res.Tiers = append(res.Tiers, "prune")
		}
	}
	if fires(opts.Summarize) && has(v.states, placeholder) {
		var fresh []int
		for i, s := range v.states {
			if s == placeholder {
				fresh = append(fresh, i)
			}
		}
		if sum == nil {
			res.Notes = append(res.Notes, "summarizing was needed but no agent could be asked: kept pruned placeholders only")
		} else if newSummary, err := summarize(ctx, sum, opts.Summary, turns, fresh, opts); err != nil {
			res.Notes = append(res.Notes, "summarizing failed ("+oneLine(err.Error())+"): kept pruned placeholders only")
		} else {
			// Placeholders are always the oldest turns after the previous
			// summary, so the summary keeps covering a prefix.
			for _, i := range fresh {
				v.states[i] = summarized
			}
			summarizedN = fresh[len(fresh)-1] + 1
			res.Summary = newSummary
			v.summary = tidySummary(newSummary, opts.HistoryTool, summarizedN, 0)
			res.Tiers = append(res.Tiers, "summarize")
		}
	}
	if res.Summary == "" && summarizedN > 0 {
		res.Summary = opts.Summary
	}
	if v.tokens() > limit {
		res.Tiers = append(res.Tiers, "fit")
		res.Notes = append(res.Notes, fit(v, limit)...)
	}
	for i, s := range v.states {
		switch s {
		case whole:
			res.Whole = append(res.Whole, i+1)
		case placeholder:
			res.Pruned = append(res.Pruned, i+1)
		case summarized:
			res.Summarized = append(res.Summarized, i+1)
		}
	}
	res.Text = v.text()
	if Tokens(res.Text) > limit {
		res.Text = hardCut(res.Text, limit)
		res.Notes = append(res.Notes, "even the last turn's question did not fit: what is sent was cut at the window (marked)")
	}
	res.TokensAfter = Tokens(res.Text)
	res.SummarizedN = summarizedN
	return res
}

func has(states []state, want state) bool {
	for _, s := range states {
		if s == want {
			return true
		}
	}
	return false
}

// tailTokens estimates the guarded turns sent whole.
func tailTokens(turns []Turn, opts Options) int {
	v := &view{turns: turns, states: make([]state, len(turns)), details: make([]detail, len(turns)), opts: opts}
	return v.tokens()
}

// snipTurn snips a turn's long tool results; it returns how many.
func snipTurn(t *Turn, n, max int, tool bool) int {
	count := 0
	items := make([]Item, len(t.Items))
	for j, it := range t.Items {
		if it.Kind == "tool_result" && utf8.RuneCountInString(it.Text) > max && !strings.Contains(it.Text, "[cut: lines ") {
			it.Text = snip(it.Text, max, wholeAt(n, tool))
			count++
		}
		items[j] = it
	}
	t.Items = items
	return count
}

// wholeAt says where a cut part of turn n can be read whole.
func wholeAt(n int, tool bool) string {
	if tool {
		return fmt.Sprintf("context_history turn %d has them whole", n)
	}
	return "the conversation's transcript keeps them, though it is not readable in this session"
}

// fit reduces what is sent until it fits limit, least valuable first. It
// returns what it did, for the result's notes.
func fit(v *view, limit int) []string {
	var notes []string
	fits := func() bool { return v.tokens() <= limit }
	n := len(v.turns)
	// 1. The summary's sections, each capped (the users' words excepted),
	//    the papers and files touched one line a paper.
	if v.summary != "" {
		v.summary = tidySummary(v.summary, v.opts.HistoryTool, 0, max(200, limit*4/30))
		if fits() {
			return append(notes, "the summary's sections were capped")
		}
	}
	// 2. The tail guard shrinks down to the last turn.
	shrunk := false
	for i := 0; i < n-1 && !fits(); i++ {
		if v.states[i] == whole {
			v.states[i] = placeholder
			shrunk = true
		}
	}
	if shrunk {
		notes = append(notes, "the tail guard shrank to fit the window")
		if fits() {
			return notes
		}
	}
	// 3. The last turn's tool results, snipped harder, then left out; then
	//    its answer, cut. (Its question is kept.)
	last := n - 1
	if last >= 0 && v.states[last] == whole {
		t := &v.turns[last]
		for _, size := range []int{v.opts.SnipChars, 1000, 300} {
			if fits() {
				break
			}
			snipTurn(t, last+1, size, v.opts.HistoryTool)
		}
		if !fits() && len(t.Items) > 0 {
			var kept []Item
			for _, it := range t.Items {
				if it.Kind == "tool_result" {
					it.Text = "[left out to fit the window; " + wholeAt(last+1, v.opts.HistoryTool) + "]"
				}
				kept = append(kept, it)
			}
			t.Items = kept
		}
		if !fits() {
			t.Items = nil
		}
		if !fits() && t.Assistant != "" {
			t.Assistant = cutTo(t.Assistant, utf8.RuneCountInString(t.Assistant)-(v.tokens()-limit)*4-200, "answer", last+1, v.opts.HistoryTool)
		}
		notes = append(notes, "the last turn's tool results and answer were snipped to fit the window")
		if fits() {
			return notes
		}
	}
	// 4. Placeholders say only the user's words.
	for i := 0; i < n && !fits(); i++ {
		if v.states[i] == placeholder && v.details[i] == full {
			v.details[i] = short
		}
	}
	if fits() {
		return append(notes, "placeholders were shortened")
	}
	// 5. The summary keeps only the users' words.
	if v.summary != "" {
		v.summary = usersOnly(v.summary)
		if fits() {
			return append(notes, "the summary was reduced to the users' messages")
		}
	}
	// 6. The oldest users' words go: the summary's first, then the
	//    placeholders', oldest first, each a turn number that
	//    context_history can read.
	dropped := 0
	for v.summary != "" && !fits() {
		s, ok := dropOldestUser(v.summary)
		if !ok {
			break
		}
		v.summary = s
		dropped++
	}
	for i := 0; i < n && !fits(); i++ {
		if v.states[i] == placeholder && v.details[i] != bare {
			v.details[i] = bare
			dropped++
		}
	}
	if dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d of the oldest user messages are left out (by turn number only) to fit the window", dropped))
	}
	if fits() {
		return notes
	}
	// 7. The last turn's own question, snipped.
	if last >= 0 && v.states[last] == whole {
		t := &v.turns[last]
		t.Assistant = ""
		if !fits() {
			t.User = cutTo(t.User, utf8.RuneCountInString(t.User)-(v.tokens()-limit)*4-200, "question", last+1, v.opts.HistoryTool)
		}
		notes = append(notes, "the last turn alone was over the window: it was snipped (marked)")
	}
	return notes
}

// cutTo keeps the first keep characters of s and marks the cut.
func cutTo(s string, keep int, what string, n int, tool bool) string {
	r := []rune(s)
	keep = max(0, min(keep, len(r)))
	if keep == len(r) {
		return s
	}
	where := "the transcript keeps it"
	if tool {
		where = fmt.Sprintf("context_history turn %d has it whole", n)
	}
	return string(r[:keep]) + fmt.Sprintf(" [%s snipped: %d of %d characters left out to fit the window; %s]", what, len(r)-keep, len(r), where)
}

// hardCut is the last resort: the text cut at the limit, marked.
func hardCut(s string, limit int) string {
	const mark = "\n[cut here to fit the window]\n"
	room := limit*4 - 3 - utf8.RuneCountInString(mark)
	r := []rune(s)
	if room <= 0 {
		return string(r[:max(0, min(len(r), limit*4-3))])
	}
	return string(r[:min(len(r), room)]) + mark
}

// snip keeps the head and tail of a long tool result, with line numbers and
// a notice of what was cut and where it can be read whole.
func snip(text string, max int, where string) string {
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
	fmt.Fprintf(&b, "[cut: lines %d–%d of %d omitted to save space; %s]\n", first, last, len(lines), where)
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
