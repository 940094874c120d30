package main

import (
	"github.com/agentero/agentero/backend/intake"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// ImportZoteroWithBase is the summary's "Choose base directory…": it asks
// for Zotero's Linked Attachment Base Directory and imports the Zotero data
// folder dataDir again with it (by Zotero key, so only the papers whose
// PDFs were not found are added); nil when the user cancelled.
func (a *App) ImportZoteroWithBase(dataDir string) (*intake.Report, error) {
	base, err := runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{
		Title: "Choose Zotero’s Linked Attachment Base Directory (Zotero → Settings → Advanced → Files and Folders)"})
	if err != nil || base == "" {
		return nil, err
	}
	return on(a, func(ws *workspace.Workspace) (*intake.Report, error) {
		return ws.ImportZoteroBase(a.ctx, dataDir, base)
	})
}
