package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentero/agentero/backend/context/docs"
	"github.com/agentero/agentero/backend/context/snapshot"
	"github.com/agentero/agentero/backend/vault"
)

// Snapshot is the frozen context a new session of the vault at dir would
// get (`agentero context`). It only reads, and needs no open workspace: the
// index is not involved.
func Snapshot(dir string) (*snapshot.Snapshot, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return nil, notFound(fmt.Errorf("%s is not a vault folder", dir))
	}
	if err := vault.CheckStateFolder(root); err != nil {
		return nil, fmt.Errorf("open vault: %w", err)
	}
	return snapshot.Build(root, snapshot.Options{})
}

// ContextDocs are the vault's context documents and the ones that could
// not be used, with why.
type ContextDocs struct {
	Docs     []docs.Doc     `json:"docs"`
	Problems []docs.Problem `json:"problems"`
}

// ContextDocs lists the vault's context documents.
func (w *Workspace) ContextDocs() (*ContextDocs, error) {
	return call(context.Background(), w, func(context.Context) (*ContextDocs, error) {
		cat, err := docs.Scan(w.Root())
		if err != nil {
			return nil, err
		}
		out := &ContextDocs{Docs: cat.Docs(), Problems: cat.Problems}
		if out.Docs == nil {
			out.Docs = []docs.Doc{}
		}
		if out.Problems == nil {
			out.Problems = []docs.Problem{}
		}
		return out, nil
	})
}

// ContextDocSource returns a document's whole file for the editor.
func (w *Workspace) ContextDocSource(id string) (string, error) {
	return call(context.Background(), w, func(context.Context) (string, error) {
		return docs.Source(w.Root(), id)
	})
}

// SaveContextDoc checks and stores a document the user edited; new
// sessions see it (running ones keep their frozen snapshot).
func (w *Workspace) SaveContextDoc(id, content string) error {
	_, err := call(context.Background(), w, func(context.Context) (struct{}, error) {
		return struct{}{}, docs.Save(w.Root(), id, content)
	})
	return err
}

// DeleteContextDoc removes a context document.
func (w *Workspace) DeleteContextDoc(id string) error {
	_, err := call(context.Background(), w, func(context.Context) (struct{}, error) {
		return struct{}{}, docs.Delete(w.Root(), id)
	})
	return err
}
