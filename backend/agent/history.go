package agent

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// turnAsked finds a question about an earlier turn of the conversation
// ("what did I ask in turn 2?"): its number, or 0.
var (
	turnAsked = regexp.MustCompile(`(?i)\bturn\s+(\d{1,5})\b`)
	// aboutUs tells a question about the conversation ("what did I ask in
	// turn 2?") from one about a paper ("what happens in turn 2 of Raft?").
	aboutUs = regexp.MustCompile(`(?i)\b(i|you|we|me|us)\b`)
)

// historyPage is what context_history returns for one turn.
type historyPage struct {
	Turn       int    `json:"turn"`
	Turns      int    `json:"turns"`
	Text       string `json:"text"`
	NextOffset int    `json:"nextOffset"`
}

// earlierTurn answers a question about an earlier turn by reading it back
// with context_history, as a model would when its prompt holds only a
// placeholder or a summary of that turn. ok is false when the question
// names no turn or the session has no such tool (then the turn is answered
// as any other).
func earlierTurn(ctx context.Context, r *reader, question string) (string, bool, error) {
	m := turnAsked.FindStringSubmatch(question)
	if m == nil || !aboutUs.MatchString(question) {
		return "", false, nil
	}
	n, _ := strconv.Atoi(m[1])
	var page historyPage
	err := r.call(ctx, sdk.ToolKindRead, fmt.Sprintf("context_history: turn %d", n), "context_history", map[string]any{"turn": n}, &page)
	var refused errTool
	if errors.As(err, &refused) {
		return "", false, nil // no such turn (or no such tool): answer as any other question
	}
	if err != nil {
		if strings.Contains(err.Error(), "unknown tool") || strings.Contains(err.Error(), "not found") {
			return "", false, nil
		}
		return "", true, err
	}
	var user, answer []string
	var in *[]string
	for _, line := range strings.Split(strings.TrimRight(page.Text, "\n"), "\n") {
		_, text, ok := strings.Cut(line, " | ")
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(text, "User: "):
			in = &user
			text = strings.TrimPrefix(text, "User: ")
		case strings.HasPrefix(text, "Assistant: "):
			in = &answer
			text = strings.TrimPrefix(text, "Assistant: ")
		case strings.HasPrefix(text, "[tool ") || strings.HasPrefix(text, "(sources: "):
			in = nil
		}
		if in != nil {
			*in = append(*in, text)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Turn %d of this conversation, read back with context_history:\n\n", n)
	fmt.Fprintf(&b, "You asked: “%s”\n\n", strings.TrimSpace(strings.Join(user, "\n")))
	if len(answer) > 0 {
		fmt.Fprintf(&b, "I answered:\n\n%s\n", strings.TrimSpace(strings.Join(answer, "\n")))
	} else {
		b.WriteString("That turn has no answer recorded.\n")
	}
	if page.NextOffset > 0 {
		fmt.Fprintf(&b, "\n(The turn is longer; this is its first page.)\n")
	}
	return b.String(), true, nil
}
