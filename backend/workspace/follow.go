package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/vault"
)

// LinkWait is how long a link waits for its paper to reach the index of a
// vault that is still being indexed.
const LinkWait = 60 * time.Second

// LinkTarget is where an agentero:// link leads, once checked.
type LinkTarget struct {
	Vault   string `json:"vault"`
	Ref     string `json:"ref"`
	PDFPath string `json:"pdfPath"`
	Title   string `json:"title"`
	Page    int    `json:"page"`
	Quote   string `json:"quote"`
	// CitationURI is the citation the link opens (its paper's PDF, page
	// and quote): what the viewer hands the locator.
	CitationURI  string `json:"citationUri,omitempty"`
	VaultChanged bool   `json:"vaultChanged"` // the app switched vaults to follow it
}

// CheckLink parses an agentero:// link strictly and checks its vault: a
// folder that may be a vault and, unless trusted, one of known (the user's
// vaults). A malformed link or vault is ErrInvalid; an unknown vault also
// wraps applink.ErrUnknownVault, for the window to ask the user.
func CheckLink(raw string, known []string, trusted bool) (applink.Link, error) {
	l, err := applink.Parse(raw)
	if err != nil {
		return applink.Link{}, invalid(err)
	}
	if err := applink.CheckVault(l); err != nil {
		return applink.Link{}, invalid(err)
	}
	if !trusted {
		if err := applink.CheckKnown(l, known); err != nil {
			return applink.Link{}, invalid(err)
		}
	}
	return l, nil
}

// FollowLink finds the paper and page of a checked link to this vault.
// While the vault is being indexed and the paper's folder is there, it
// waits (up to wait; 0 = LinkWait) for the index to take the paper, woken
// by each change of the index rather than polling. A paper that is not in
// the vault, or not indexed in time, is ErrNotFound; a ref that is no paper
// folder, or a page past the paper's end, is ErrInvalid.
func (w *Workspace) FollowLink(ctx context.Context, l applink.Link, wait time.Duration) (*LinkTarget, error) {
	if wait <= 0 {
		wait = LinkWait
	}
	return call(ctx, w, func(ctx context.Context) (*LinkTarget, error) {
		p, err := w.linkedPaper(ctx, l, wait)
		if err != nil {
			return nil, err
		}
		if p.Pages > 0 && l.Page > p.Pages {
			return nil, invalid(fmt.Errorf("page %d is past the end of %q, which has %d pages", l.Page, paperTitle(p), p.Pages))
		}
		return &LinkTarget{Vault: w.Root(), Ref: p.Ref, PDFPath: p.PDFPath, Title: p.Title, Page: l.Page, Quote: l.Quote,
			CitationURI: l.Citation(p.PDFPath).String()}, nil
	})
}

// linkedPaper finds the link's paper in the index, waiting for the index
// to change while the paper's folder is there but not yet indexed.
func (w *Workspace) linkedPaper(ctx context.Context, l applink.Link, wait time.Duration) (index.Paper, error) {
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	for {
		changed := w.changes.next() // taken before looking: a change after the look wakes us
		p, err := w.lib.DB().Paper(ctx, l.Ref)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, index.ErrNotFound) {
			return index.Paper{}, err
		}
		dir, err := vault.Resolve(w.Root(), l.Ref)
		if errors.Is(err, fs.ErrNotExist) {
			return index.Paper{}, notFound(fmt.Errorf("the paper %s is not in the vault %s (moved or deleted?)", l.Ref, l.Vault))
		}
		if err != nil {
			return index.Paper{}, invalid(fmt.Errorf("%s is not a paper Agentero may open in %s", l.Ref, l.Vault))
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return index.Paper{}, invalid(fmt.Errorf("%s in %s is not a paper folder", l.Ref, l.Vault))
		}
		select {
		case <-changed:
		case <-timeout.C:
			return index.Paper{}, notFound(fmt.Errorf("%s in %s holds no PDF the index knows (not indexed yet, or no PDF in it)", l.Ref, l.Vault))
		case <-ctx.Done():
			return index.Paper{}, ctx.Err()
		}
	}
}

func paperTitle(p index.Paper) string {
	if p.Title != "" {
		return p.Title
	}
	return p.Ref
}

// indexChanges tells waiters that the index changed: a paper was read
// (index:progress), a sync ended (index:done) or the library changed
// (library:changed). A waiter takes next, looks at the index, and waits on
// what it took.
type indexChanges struct {
	mu sync.Mutex    // guards ch; held only to take or replace it
	ch chan struct{} // closed at the next change, then replaced
}

func newIndexChanges() *indexChanges { return &indexChanges{ch: make(chan struct{})} }

// next is closed at the next change of the index.
func (c *indexChanges) next() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ch
}

// watching returns an emitter that passes every event on to emit and wakes
// the waiters on the index's.
func (c *indexChanges) watching(emit events.Emitter) events.Emitter {
	return func(name string, payload any) {
		switch name {
		case events.IndexProgress, events.IndexDone, events.LibraryChanged:
			c.mu.Lock()
			close(c.ch)
			c.ch = make(chan struct{})
			c.mu.Unlock()
		}
		emit(name, payload)
	}
}
