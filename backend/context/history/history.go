// Package history reads a conversation's transcript back as whole turns:
// for compaction (what a new session is handed) and for the
// context_history tool, through which an agent reads the turns that were
// pruned or summarized out of its prompt (SPEC §8.3). It only reads.
package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/context/compact"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/transcript"
	"github.com/agentero/agentero/backend/vault"
)

// Read returns the finished turns of a conversation of the vault, from its
// transcript (opened beneath the vault's own state folder, never through a
// link). A conversation without a transcript has no turns.
func Read(vaultRoot, conversationID string) ([]compact.Turn, error) {
	if !grant.ValidRuntimeID(conversationID) {
		return nil, fmt.Errorf("%q is not a conversation id", conversationID)
	}
	dir, err := vault.FindStateFolder(vaultRoot, "chats", conversationID)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	entries, err := transcript.Read(dir)
	if err != nil {
		return nil, err
	}
	return Turns(entries), nil
}

// Turns rebuilds a conversation's finished turns (answered or failed) from
// its transcript entries; a turn still running is left out.
func Turns(entries []transcript.Entry) []compact.Turn {
	var out []compact.Turn
	done := map[string]bool{}
	for _, e := range entries {
		if e.Kind == "assistant" || e.Kind == "error" {
			done[e.Turn] = true
		}
	}
	index := map[string]int{}
	for line, e := range entries {
		i, ok := index[e.Turn]
		if !ok {
			if e.Kind != "user" || !done[e.Turn] {
				continue
			}
			out = append(out, compact.Turn{ID: e.Turn, User: e.Text, Line: line + 1})
			index[e.Turn] = len(out) - 1
			continue
		}
		t := &out[i]
		switch e.Kind {
		case "tool_call":
			t.Items = append(t.Items, compact.Item{Kind: "tool_call", Tool: e.Text})
		case "tool_update":
			if text := toolText(e.Data); text != "" {
				t.Items = append(t.Items, compact.Item{Kind: "tool_result", Tool: toolName(e.ToolCall, entries), Text: text})
			}
		case "assistant":
			t.Assistant = e.Text
			if m, ok := e.Data.(map[string]any); ok {
				if srcs, ok := m["sources"].([]any); ok {
					for _, s := range srcs {
						if str, ok := s.(string); ok {
							t.Sources = append(t.Sources, str)
						}
					}
				}
			}
		case "error":
			t.Error = e.Text
		}
	}
	return out
}

// toolText pulls the text a tool call returned out of a recorded update.
func toolText(data any) string {
	m, ok := data.(map[string]any)
	if !ok {
		return ""
	}
	var parts []string
	if out, ok := m["output"]; ok && out != nil {
		if s, ok := out.(string); ok {
			parts = append(parts, s)
		} else if b, err := json.Marshal(out); err == nil {
			parts = append(parts, string(b))
		}
	}
	if content, ok := m["content"].([]any); ok {
		for _, c := range content {
			if cm, ok := c.(map[string]any); ok {
				if inner, ok := cm["content"].(map[string]any); ok {
					if s, ok := inner["text"].(string); ok {
						parts = append(parts, s)
					}
				}
			}
		}
	}
	return strings.Join(parts, "\n")
}

func toolName(id string, entries []transcript.Entry) string {
	for _, e := range entries {
		if e.Kind == "tool_call" && e.ToolCall == id {
			return e.Text
		}
	}
	return "tool"
}

// Lines writes turn n (1-based) of turns whole, one line of text a line:
// the user's words, each tool call and result, the answer, its sources.
func Lines(turns []compact.Turn, n int) []string {
	t := turns[n-1]
	var lines []string
	add := func(prefix, text string) {
		for i, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			if i == 0 {
				lines = append(lines, prefix+l)
			} else {
				lines = append(lines, l)
			}
		}
	}
	add("User: ", t.User)
	for _, it := range t.Items {
		switch it.Kind {
		case "tool_call":
			lines = append(lines, "[tool call "+it.Tool+"]")
		case "tool_result":
			lines = append(lines, "[tool result "+it.Tool+"]")
			add("", it.Text)
			lines = append(lines, "[end of tool result]")
		}
	}
	if t.Assistant != "" {
		add("Assistant: ", t.Assistant)
	}
	if len(t.Sources) > 0 {
		lines = append(lines, "(sources: "+strings.Join(t.Sources, ", ")+")")
	}
	if t.Error != "" {
		lines = append(lines, "(this turn failed: "+t.Error+")")
	}
	return lines
}

// Page is one page of the context_history tool's answer.
type Page struct {
	Conversation string `json:"conversation"`
	Turns        int    `json:"turns"`          // finished turns in the conversation
	Turn         int    `json:"turn,omitempty"` // the turn shown; 0 = the list of turns
	Text         string `json:"text"`           // line-numbered: "  12 | …"
	FromLine     int    `json:"fromLine"`
	ToLine       int    `json:"toLine"`
	TotalLines   int    `json:"totalLines"`
	NextOffset   int    `json:"nextOffset,omitempty"` // pass as offset to continue; absent at the end
	Cut          bool   `json:"cut,omitempty"`        // stopped at maxChars, not at the end
}

// MaxLines is the most lines a page holds.
const MaxLines = 400

// Paginate pages through turns: turn 0 lists them (one line a turn: its number
// and the user's words), turn n shows it whole. offset is the first line
// (0-based), limit the lines (≤ MaxLines), maxChars what the page may take.
func Paginate(conversation string, turns []compact.Turn, turn, offset, limit, maxChars int) (Page, error) {
	p := Page{Conversation: conversation, Turns: len(turns), Turn: turn}
	var lines []string
	switch {
	case turn < 0 || turn > len(turns):
		if len(turns) == 0 {
			return p, fmt.Errorf("this conversation has no earlier finished turn yet")
		}
		return p, fmt.Errorf("this conversation has turns 1–%d; turn %d is not one of them", len(turns), turn)
	case turn == 0:
		for i, t := range turns {
			l := fmt.Sprintf("Turn %d: %s", i+1, oneLine(t.User))
			if utf8.RuneCountInString(l) > 300 {
				l = string([]rune(l)[:300]) + "…"
			}
			lines = append(lines, l)
		}
	default:
		lines = Lines(turns, turn)
	}
	if limit <= 0 || limit > MaxLines {
		limit = MaxLines
	}
	p.TotalLines = len(lines)
	if offset < 0 || (offset >= len(lines) && len(lines) > 0) {
		return p, fmt.Errorf("offset %d is past the last line (%d lines)", offset, len(lines))
	}
	var b strings.Builder
	end := offset
	for end < len(lines) && end < offset+limit {
		l := fmt.Sprintf("%5d | %s\n", end+1, lines[end])
		if maxChars > 0 && b.Len() > 0 && utf8.RuneCountInString(b.String())+utf8.RuneCountInString(l) > maxChars {
			p.Cut = true
			break
		}
		b.WriteString(l)
		end++
	}
	p.Text = b.String()
	p.FromLine, p.ToLine = offset+1, end
	if end < len(lines) {
		p.NextOffset = end
	}
	return p, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
