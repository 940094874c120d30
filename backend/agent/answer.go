package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/wire"
	"github.com/agentero/agentero/backend/text"
	sdk "github.com/coder/acp-go-sdk"
)

func (a *Agent) Prompt(ctx context.Context, req sdk.PromptRequest) (sdk.PromptResponse, error) {
	s, err := a.find(req.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	defer cancel()

	var texts []string
	for _, b := range req.Prompt {
		if b.Text != nil {
			texts = append(texts, b.Text.Text)
		}
	}
	question := ""
	if len(texts) > 0 {
		question = strings.TrimSpace(texts[len(texts)-1])
	}
	var answer string
	if strings.HasPrefix(question, wire.SummaryMarker) {
		answer = summarize(question) // a compaction request from the host, not a question
	} else {
		answer, err = a.answer(ctx, s, question, parseTurn(texts))
	}
	if ctx.Err() != nil {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	if err := a.say(ctx, s.ID, answer); err != nil {
		return sdk.PromptResponse{}, err
	}
	s.mu.Lock()
	s.History = append(s.History, turn{Role: "user", Text: question}, turn{Role: "assistant", Text: answer})
	s.mu.Unlock()
	if err := a.save(s); err != nil {
		a.log.Warn("save session", "err", err)
	}
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}

// say streams the answer in a few chunks, paragraph by paragraph.
func (a *Agent) say(ctx context.Context, id sdk.SessionId, text string) error {
	parts := strings.SplitAfter(text, "\n\n")
	for _, p := range parts {
		if p == "" {
			continue
		}
		if err := a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: id, Update: sdk.UpdateAgentMessageText(p)}); err != nil {
			return err
		}
	}
	return nil
}

// answer starts from what the user selected, searches the granted sources
// for the question, reads the pages it may quote, and quotes whole
// sentences of body text, each with its citation.
//
// The agentero-context server is started for the turn and stopped after
// it: the server counts the budget of everything it returns, and the
// budget is the turn's.
func (a *Agent) answer(ctx context.Context, s *session, question string, tc turnContext) (string, error) {
	if question == "" {
		return "Ask me a question about the papers you point at, and I will quote the passages that answer it.", nil
	}
	s.mu.Lock()
	servers := s.McpServers
	s.mu.Unlock()
	t, err := connect(ctx, servers)
	if err == errNoContext {
		return promptOnly(question, tc), nil
	}
	if err != nil {
		return "", err
	}
	s.setTools(t)
	defer s.closeTools()

	r := newReader(a, s.ID, t, tc.turnChars)
	if text, ok, err := earlierTurn(ctx, r, question); ok || err != nil {
		return text, err
	}
	g := &gatherer{r: r, question: question, seen: map[string]bool{}}
	near := map[string]bool{}
	for i, e := range tc.selections() {
		if i == maxSelection {
			break
		}
		if err := g.selection(ctx, e); err != nil {
			return "", err
		}
		for d := -1; d <= 1; d++ {
			near[fmt.Sprintf("%s#%d", e.ref, e.page+d)] = true
		}
	}
	limit := tc.searchCards
	if limit <= 0 {
		limit = defaultSearchCards
	}
	query := keywords(question)
	if err := g.search(ctx, query, limit, near); err != nil {
		return "", err
	}
	passages := g.passages(query, questionParts(question))
	if err := g.noText(ctx, tc.papers()); err != nil {
		return "", err
	}
	return compose(question, passages, g.notes, g.more), nil
}

// compose writes the answer: the passages, numbered, each followed by where
// it is and its citation; what could not be read; the sources.
func compose(question string, passages []passage, notes []string, more bool) string {
	var b strings.Builder
	if len(passages) == 0 {
		fmt.Fprintf(&b, "I found nothing relevant to “%s” in what this turn may read.", question)
		for _, n := range notes {
			b.WriteString(" " + n)
		}
		if len(notes) == 0 {
			b.WriteString(" Try other words, or @-mention the paper or folder that should hold the answer.")
		}
		return b.String()
	}
	if passages[0].selection {
		fmt.Fprintf(&b, "Starting from your selection, these passages bear on “%s”:\n\n", question)
	} else {
		fmt.Fprintf(&b, "These passages in your sources best match “%s”:\n\n", question)
	}
	var sources []string
	seen := map[string]bool{}
	for i, p := range passages {
		where := p.title
		if p.page > 0 {
			where += fmt.Sprintf(", page %d", p.page)
			if p.label != "" {
				where += fmt.Sprintf(" (printed %s)", p.label)
			}
		}
		if p.selection {
			where += ", your selection"
		}
		fmt.Fprintf(&b, "%d. “%s”\n   — %s [%s]\n\n", i+1, p.text, where, quoted(p.citation, p.text))
		if !seen[p.citation] {
			seen[p.citation] = true
			sources = append(sources, p.citation)
		}
	}
	for _, n := range notes {
		b.WriteString(n + "\n\n")
	}
	if more {
		b.WriteString("More passages match; ask a narrower question to see them.\n\n")
	}
	b.WriteString("Sources:\n")
	for _, u := range sources {
		fmt.Fprintf(&b, "- %s\n", u)
	}
	return b.String()
}

// quoted is the citation of a passage: its page's (or file's) citation
// URI with the passage as its quote, written by package citation, so that
// a check finds the quote on the page (verified) and opening the citation
// marks the passage; a figure's region stays with it. A URI that is not a vault citation is kept as given.
func quoted(uri, passage string) string {
	u, err := citation.Parse(uri)
	if err != nil || u.External() {
		return uri
	}
	q := citation.New(u.Path, u.Page, clipQuote(oneLine(passage)))
	q.Label, q.Region = u.Label, u.Region
	return q.String()
}

// clipQuote cuts a passage to what a citation's quote may hold, at a word.
func clipQuote(s string) string {
	r := []rune(s)
	if len(r) <= citation.MaxQuote {
		return s
	}
	cut := string(r[:citation.MaxQuote])
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return cut
}

// promptOnly answers a turn that has no tools: it can only point back at
// what the user selected, which the prompt carries.
func promptOnly(question string, tc turnContext) string {
	sels := tc.selections()
	if len(sels) == 0 {
		return fmt.Sprintf("I cannot read your vault in this turn, so I cannot answer “%s” from your papers. Open a paper or @-mention what I should read, and ask again.", question)
	}
	var b strings.Builder
	b.WriteString("I cannot read your vault in this turn; all I have is what you selected:\n\n")
	for i, e := range sels {
		where := e.title
		if e.page > 0 {
			where += fmt.Sprintf(", page %d", e.page)
		}
		fmt.Fprintf(&b, "%d. “%s”\n   — %s [%s]\n\n", i+1, oneLine(e.quote), where, quoted(e.citation, e.quote))
	}
	fmt.Fprintf(&b, "To answer “%s” from your papers, ask in a turn that can read them.", question)
	return b.String()
}

// toolStart reports a tool call the agent makes; toolDone its end.
func (a *Agent) toolStart(ctx context.Context, id sdk.SessionId, callID, title string, kind sdk.ToolKind, input any) {
	a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: id, Update: sdk.StartToolCall(sdk.ToolCallId(callID), title,
		sdk.WithStartKind(kind), sdk.WithStartStatus(sdk.ToolCallStatusInProgress), sdk.WithStartRawInput(input))})
}

func (a *Agent) toolDone(ctx context.Context, id sdk.SessionId, callID string, err error) {
	status := sdk.ToolCallStatusCompleted
	if err != nil {
		status = sdk.ToolCallStatusFailed
	}
	a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: id, Update: sdk.UpdateToolCall(sdk.ToolCallId(callID), sdk.WithUpdateStatus(status))})
}

// keywords drops the words of the question that say nothing about what
// it asks (text.Stop: how, the, explain, paper …), keeping what a search
// can match, and a figure or table it names ("Figure 3", "Fig. 2",
// "Table II"), which the search finds by its label; a question of such
// words alone is kept whole.
func keywords(q string) string {
	var keep []string
	content := func(s string) {
		for _, w := range text.Split(s) {
			if !text.Stop(text.Fold(w)) {
				keep = append(keep, w)
			}
		}
	}
	at := 0
	for _, f := range text.FigureNames(q, -1) {
		content(q[at:f.Start])
		keep = append(keep, q[f.Start:f.End])
		at = f.End
	}
	content(q[at:])
	if len(keep) == 0 {
		return q
	}
	return strings.Join(keep, " ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
