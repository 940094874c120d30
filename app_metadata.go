package main

import (
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/metadata"
	"github.com/agentero/agentero/backend/workspace"
)

// PaperMetadata reads a paper's metadata.json for the metadata editor.
func (a *App) PaperMetadata(ref string) (metadata.Details, error) {
	return on(a, func(ws *workspace.Workspace) (metadata.Details, error) { return ws.PaperMetadata(a.ctx, ref) })
}

// SaveMetadata writes the user's edit of the named fields (metadata.Fields
// keys) to the paper's metadata.json, marked as the user's, reindexes it
// and returns the paper as the library shows it now. Invalid values are
// refused with code "invalid" and a message in sentences.
func (a *App) SaveMetadata(ref string, values metadata.Values, fields []string) (index.Paper, error) {
	return on(a, func(ws *workspace.Workspace) (index.Paper, error) { return ws.SaveMetadata(a.ctx, ref, values, fields) })
}

// LookupMetadata looks the open vault's papers up online now (Settings must
// allow it): DOIs at Crossref, arXiv ids at arXiv; again includes papers
// looked up before. It answers with what was written and what failed.
func (a *App) LookupMetadata(again bool) (workspace.OnlineReport, error) {
	return on(a, func(ws *workspace.Workspace) (workspace.OnlineReport, error) {
		return ws.LookupMetadata(a.ctx, false, again)
	})
}

// MetadataLookup reports the last (or running) online lookup.
func (a *App) MetadataLookup() (workspace.OnlineReport, error) {
	return on(a, func(ws *workspace.Workspace) (workspace.OnlineReport, error) { return ws.MetadataLookup(), nil })
}
