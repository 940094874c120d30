package workspace

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/export"
)

// ExportRequest names what to export: a conversation, or one answer of it
// (MessageID), as "markdown", "bibtex" (its cited papers) or "csl-json".
type ExportRequest struct {
	ConversationID string `json:"conversationId"`
	MessageID      string `json:"messageId"` // "" = the whole conversation
	Format         string `json:"format"`
}

// Export makes the export req asks for and a file name to suggest for it.
// An answer not in the conversation is ErrNotFound; an unknown format, or a
// bibliography of a conversation that cites no paper of the library, is
// ErrInvalid (each a sentence for the user, shown as it is).
func (w *Workspace) Export(ctx context.Context, req ExportRequest) (text, name string, err error) {
	c, err := w.Conversation(req.ConversationID)
	if err != nil {
		return "", "", err
	}
	papers, err := w.Papers(ctx)
	if err != nil {
		return "", "", err
	}
	lib := export.Library{Root: w.Root(), Papers: papers, Labels: func(ref string, page int) string {
		label, _ := w.PageLabel(ctx, ref, page)
		return label
	}}
	msgs := c.Messages
	if req.MessageID != "" {
		msgs = nil
		for _, m := range c.Messages {
			if m.ID == req.MessageID {
				msgs = []conversation.Message{m}
			}
		}
		if msgs == nil {
			return "", "", notFound(errors.New("This answer is not in the conversation."))
		}
	}
	var sources []export.Source
	for _, m := range msgs {
		if m.Role != "user" {
			sources = append(sources, lib.Sources(m)...)
		}
	}
	cited := export.Papers(sources)
	title := exportTitle(c)
	switch req.Format {
	case "markdown":
		if req.MessageID != "" {
			return lib.AnswerMarkdown(msgs[0]), "answer.md", nil
		}
		return lib.ConversationMarkdown(c, title), exportFileName(title) + ".md", nil
	case "bibtex", "csl-json":
		if len(cited) == 0 {
			return "", "", invalid(errors.New("No paper of the library is cited here, so there is nothing to export."))
		}
		if req.Format == "bibtex" {
			return export.BibTeX(cited), "references.bib", nil
		}
		b, err := export.CSLJSON(cited)
		return string(b) + "\n", "references.json", err
	}
	return "", "", invalid(fmt.Errorf("There is no export format %q.", req.Format))
}

// exportTitle is the conversation's first question, shortened.
func exportTitle(c *conversation.Conversation) string {
	for _, m := range c.Messages {
		if m.Role == "user" {
			t := strings.Join(strings.Fields(m.Content), " ")
			if r := []rune(t); len(r) > 80 {
				t = string(r[:79]) + "…"
			}
			return t
		}
	}
	return "Conversation"
}

// exportFileName makes a file name of a title: its words (letters and
// digits), joined by single spaces, at most 60 characters; no "…", quotes
// or other punctuation a file manager shows escaped.
func exportFileName(title string) string {
	words := strings.FieldsFunc(title, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' })
	f := ""
	for _, w := range words {
		w = strings.Trim(w, "-_")
		if w == "" {
			continue
		}
		if len([]rune(f))+1+len([]rune(w)) > 60 {
			break
		}
		f = strings.TrimSpace(f + " " + w)
	}
	if f == "" {
		return "conversation"
	}
	return f
}
