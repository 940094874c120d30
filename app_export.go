package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentero/agentero/backend/workspace"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// ExportText is the export as text (Copy as Markdown; workspace.Export).
func (a *App) ExportText(req workspace.ExportRequest) (string, error) {
	text, _, err := a.export(req)
	return text, err
}

// SaveExport asks where to save the export and writes it there; it returns
// the file written, "" when the user cancelled.
func (a *App) SaveExport(req workspace.ExportRequest) (string, error) {
	text, name, err := a.export(req)
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

func (a *App) export(req workspace.ExportRequest) (text, name string, err error) {
	ws, err := a.current()
	if err != nil {
		return "", "", err
	}
	return ws.Export(context.Background(), req)
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
