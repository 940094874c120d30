package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/export"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// ExportRequest names what to export: a conversation, or one answer of it
// (MessageID), as "markdown", "bibtex" (its cited papers) or "csl-json".
type ExportRequest struct {
	ConversationID string `json:"conversationId"`
	MessageID      string `json:"messageId"` // "" = the whole conversation
	Format         string `json:"format"`
}

// ExportText is the export as text (Copy as Markdown).
func (a *App) ExportText(req ExportRequest) (string, error) {
	text, _, err := a.exportText(req)
	return text, err
}

// SaveExport asks where to save the export and writes it there; it returns
// the file written, "" when the user cancelled.
func (a *App) SaveExport(req ExportRequest) (string, error) {
	text, name, err := a.exportText(req)
	if err != nil {
		return "", err
	}
	filter := map[string]runtime.FileFilter{
		"markdown": {DisplayName: "Markdown (*.md)", Pattern: "*.md"},
		"bibtex":   {DisplayName: "BibTeX (*.bib)", Pattern: "*.bib"},
		"csl-json": {DisplayName: "CSL-JSON (*.json)", Pattern: "*.json"},
	}[req.Format]
	p, err := runtime.SaveFileDialog(a.ctx, runtime.SaveDialogOptions{
		Title: "Export", DefaultDirectory: a.exportFolder(), DefaultFilename: name, Filters: []runtime.FileFilter{filter}, CanCreateDirectories: true,
	})
	if err != nil || p == "" {
		return "", err
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		return "", fmt.Errorf("could not write %s: %w", p, err)
	}
	return p, nil
}

// exportText makes the export and a file name for it.
func (a *App) exportText(req ExportRequest) (text, name string, err error) {
	ws, err := a.current()
	if err != nil {
		return "", "", err
	}
	c, err := ws.Conversation(req.ConversationID)
	if err != nil {
		return "", "", err
	}
	papers, err := ws.Papers(context.Background())
	if err != nil {
		return "", "", err
	}
	lib := export.Library{Root: ws.Root(), Papers: papers, Labels: func(ref string, page int) string {
		label, _ := ws.PageLabel(context.Background(), ref, page)
		return label
	}}
	msgs := c.Messages
	if req.MessageID != "" {
		msgs = nil
		for _, m := range c.Messages {
			if m.ID == req.MessageID {
				msgs = []acp.Message{m}
			}
		}
		if msgs == nil {
			return "", "", kinded(workspace.ErrNotFound, "This answer is not in the conversation.")
		}
	}
	var sources []export.Source
	for _, m := range msgs {
		if m.Role != "user" {
			sources = append(sources, lib.Sources(m)...)
		}
	}
	cited := export.Papers(sources)
	title := conversationTitle(c)
	switch req.Format {
	case "markdown":
		if req.MessageID != "" {
			return lib.AnswerMarkdown(msgs[0]), "answer.md", nil
		}
		return lib.ConversationMarkdown(c, title), fileName(title) + ".md", nil
	case "bibtex", "csl-json":
		if len(cited) == 0 {
			return "", "", kinded(workspace.ErrInvalid, "No paper of the library is cited here, so there is nothing to export.")
		}
		if req.Format == "bibtex" {
			return export.BibTeX(cited), "references.bib", nil
		}
		b, err := export.CSLJSON(cited)
		return string(b) + "\n", "references.json", err
	}
	return "", "", kinded(workspace.ErrInvalid, fmt.Sprintf("There is no export format %q.", req.Format))
}

// conversationTitle is the conversation's first question, shortened.
func conversationTitle(c *acp.Conversation) string {
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

// exportFolder is where the save dialog opens: the open vault's folder,
// else the user's Documents, else the home folder (never the process's
// working folder).
func (a *App) exportFolder() string {
	if ws, err := a.current(); err == nil {
		return ws.Root()
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	if st, err := os.Stat(filepath.Join(home, "Documents")); err == nil && st.IsDir() {
		return filepath.Join(home, "Documents")
	}
	return home
}

// fileName makes a file name of a title: its words (letters and digits),
// joined by single spaces, at most 60 characters; no "…", quotes or
// other punctuation a file manager shows escaped.
func fileName(title string) string {
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

// kindedError is a sentence for the user that is one of workspace's kinds
// of failure (for the error code the UI gets).
type kindedError struct {
	kind error
	msg  string
}

func kinded(kind error, msg string) error { return &kindedError{kind, msg} }
func (e *kindedError) Error() string      { return e.msg }
func (e *kindedError) Unwrap() error      { return e.kind }
