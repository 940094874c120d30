package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentero/agentero/backend/context/compact"
	"github.com/agentero/agentero/backend/text"
	sdk "github.com/coder/acp-go-sdk"
)

// card is what the agent uses of a context_search card.
type card struct {
	Ref         string `json:"ref"`
	Path        string `json:"path"`
	Title       string `json:"title"`
	Page        int    `json:"page"`
	PageLabel   string `json:"pageLabel"`
	Snippet     string `json:"snippet"`
	CitationURI string `json:"citationUri"`
}

// maxPassages is how many passages an answer quotes.
const maxPassages = 4

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
	if strings.HasPrefix(question, compact.SummaryMarker) {
		answer = summarize(question) // a compaction request from the host, not a question
	} else {
		answer, err = a.answer(ctx, s, question, strings.Join(texts, "\n"))
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

// answer searches the granted sources for the question and quotes the best
// passages, each with its citation.
func (a *Agent) answer(ctx context.Context, s *session, question, prompt string) (string, error) {
	if question == "" {
		return "Ask me a question about the papers you point at, and I will quote the passages that answer it.", nil
	}
	s.mu.Lock()
	t, servers := s.tools, s.McpServers
	s.mu.Unlock()
	if t == nil {
		var err error
		t, err = connect(ctx, servers)
		if err == errNoContext {
			return promptOnly(question, prompt), nil
		}
		if err != nil {
			return "", err
		}
		s.mu.Lock()
		s.tools = t
		s.mu.Unlock()
	}
	query := keywords(question)
	a.toolStart(ctx, s.ID, "search-1", "context_search: "+query)
	var res struct {
		Cards   []card `json:"cards"`
		Omitted int    `json:"omitted"`
	}
	err := t.call(ctx, "context_search", map[string]any{"query": query, "limit": maxPassages}, &res)
	a.toolDone(ctx, s.ID, "search-1", err)
	if err != nil && !isToolError(err) {
		return "", err
	}
	if err != nil || len(res.Cards) == 0 {
		return fmt.Sprintf("I found nothing relevant to “%s” in what this turn may read. Try other words, or @-mention the paper or folder that should hold the answer.", question), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "These passages in your sources best match “%s”:\n\n", question)
	var sources []string
	for i, c := range res.Cards {
		if i == maxPassages {
			break
		}
		where := c.Title
		if c.Page > 0 {
			where += fmt.Sprintf(", page %d", c.Page)
			if c.PageLabel != "" && c.PageLabel != fmt.Sprint(c.Page) {
				where += fmt.Sprintf(" (printed %s)", c.PageLabel)
			}
		}
		fmt.Fprintf(&b, "%d. “%s”\n   — %s [%s]\n\n", i+1, oneLine(c.Snippet), where, c.CitationURI)
		sources = append(sources, c.CitationURI)
	}
	if len(res.Cards) > maxPassages || res.Omitted > 0 {
		b.WriteString("More passages match; ask a narrower question to see them.\n\n")
	}
	b.WriteString("Sources:\n")
	for _, u := range sources {
		fmt.Fprintf(&b, "- %s\n", u)
	}
	return b.String(), nil
}

// promptOnly answers a turn that has no tools: it can only point back at
// what the prompt carries.
func promptOnly(question, prompt string) string {
	var quotes []string
	for _, line := range strings.Split(prompt, "\n") {
		if q, ok := strings.CutPrefix(strings.TrimSpace(line), "> "); ok {
			quotes = append(quotes, q)
		}
	}
	if len(quotes) == 0 {
		return fmt.Sprintf("I cannot read your vault in this turn, so I cannot answer “%s” from your papers. Open a paper or @-mention what I should read, and ask again.", question)
	}
	return fmt.Sprintf("I cannot read your vault in this turn; all I have is the passage you selected:\n\n“%s”\n\nTo answer “%s” from your papers, ask in a turn that can read them.", strings.Join(quotes, " "), question)
}

func (a *Agent) toolStart(ctx context.Context, id sdk.SessionId, callID, title string) {
	a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: id, Update: sdk.StartToolCall(sdk.ToolCallId(callID), title,
		sdk.WithStartKind(sdk.ToolKindSearch), sdk.WithStartStatus(sdk.ToolCallStatusInProgress))})
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
// can match; a question of such words alone is kept whole.
func keywords(q string) string {
	var keep []string
	for _, w := range text.Split(q) {
		if !text.Stop(text.Fold(w)) {
			keep = append(keep, w)
		}
	}
	if len(keep) == 0 {
		return q
	}
	return strings.Join(keep, " ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
