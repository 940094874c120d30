package acp

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/agentero/agentero/backend/events"
	sdk "github.com/coder/acp-go-sdk"
)

// What of a tool call reaches the UI and the stored conversation: its raw
// input as JSON text, and each piece of its content, cut to these many
// bytes (the transcript keeps them whole).
const (
	maxInputText   = 4 << 10
	maxContentText = 16 << 10
	maxDiffText    = 32 << 10
)

// inputText is a raw input as JSON text, cut at maxInputText; "" for none.
func inputText(raw any) string {
	if raw == nil {
		return ""
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(raw); err != nil {
		return ""
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if s == "null" || s == "{}" {
		return ""
	}
	return cut(s, maxInputText)
}

// cut shortens s to at most n bytes, on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// toolContent converts what a tool call produced: text and diffs as they
// are, anything else (images, resources, terminals) as a line of text.
func toolContent(cs []sdk.ToolCallContent) []events.ToolContent {
	if len(cs) == 0 {
		return nil
	}
	out := make([]events.ToolContent, 0, len(cs))
	for _, c := range cs {
		switch {
		case c.Diff != nil:
			d := events.ToolContent{Type: "diff", Path: c.Diff.Path, NewText: cut(c.Diff.NewText, maxDiffText)}
			if c.Diff.OldText != nil {
				d.OldText = cut(*c.Diff.OldText, maxDiffText)
			}
			out = append(out, d)
		case c.Content != nil:
			out = append(out, events.ToolContent{Type: "text", Text: cut(blockText(c.Content.Content), maxContentText)})
		case c.Terminal != nil:
			out = append(out, events.ToolContent{Type: "text", Text: "[terminal " + c.Terminal.TerminalId + "]"})
		}
	}
	return out
}

// blockText is an ACP content block shown as text.
func blockText(b sdk.ContentBlock) string {
	switch {
	case b.Text != nil:
		return b.Text.Text
	case b.ResourceLink != nil:
		return strings.TrimSpace(b.ResourceLink.Name + " " + b.ResourceLink.Uri)
	case b.Resource != nil:
		if t := b.Resource.Resource.TextResourceContents; t != nil {
			return t.Text
		}
		if bl := b.Resource.Resource.BlobResourceContents; bl != nil {
			return "[" + bl.Uri + "]"
		}
	case b.Image != nil:
		return "[image " + b.Image.MimeType + "]"
	case b.Audio != nil:
		return "[audio " + b.Audio.MimeType + "]"
	}
	return ""
}

// diffPaths lists the files a tool call's diffs change.
func diffPaths(cs []sdk.ToolCallContent) []string {
	var out []string
	for _, c := range cs {
		if c.Diff != nil && c.Diff.Path != "" {
			out = append(out, c.Diff.Path)
		}
	}
	return out
}

// toolState is what a turn knows of one tool call: its latest state as the
// UI shows it, and its raw input (for the paths and pages it names).
type toolState struct {
	ev  events.AgentToolEvent
	raw any
}

// merge applies an update (only what it carries changes) to the state.
func (t *toolState) merge(u events.AgentToolEvent, raw any) {
	if u.Title != "" {
		t.ev.Title = u.Title
	}
	if u.Status != "" {
		t.ev.Status = u.Status
	}
	if u.Kind != "" {
		t.ev.Kind = u.Kind
	}
	if u.Input != "" {
		t.ev.Input = u.Input
	}
	if u.Content != nil {
		t.ev.Content = u.Content
	}
	if u.Locations != nil {
		t.ev.Locations = u.Locations
	}
	if raw != nil {
		t.raw = raw
	}
}
