package workspace

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/metadata"
	"github.com/agentero/agentero/backend/settings"
)

// PaperMetadata reads the paper's metadata.json for the editor: its values,
// which fields the user set, and where each came from.
func (w *Workspace) PaperMetadata(ctx context.Context, ref string) (metadata.Details, error) {
	return call(ctx, w, func(ctx context.Context) (metadata.Details, error) {
		if _, err := w.lib.DB().Paper(ctx, ref); err != nil {
			return metadata.Details{}, notFound(fmt.Errorf("no paper %s in this vault", ref))
		}
		return metadata.Load(ctx, w.lib.Root(), ref)
	})
}

// SaveMetadata writes the user's edit of fields to the paper's
// metadata.json (metadata.Save), brings the index up to date with it, and
// returns the paper as the library now shows it.
func (w *Workspace) SaveMetadata(ctx context.Context, ref string, v metadata.Values, fields []string) (index.Paper, error) {
	return call(ctx, w, func(ctx context.Context) (index.Paper, error) {
		if _, err := w.lib.DB().Paper(ctx, ref); err != nil {
			return index.Paper{}, notFound(fmt.Errorf("no paper %s in this vault", ref))
		}
		if err := metadata.Save(ctx, w.lib.Root(), ref, v, fields); err != nil {
			var inv *metadata.InvalidError
			if errors.As(err, &inv) {
				return index.Paper{}, invalid(err)
			}
			return index.Paper{}, err
		}
		if _, err := w.lib.Sync(ctx); err != nil {
			return index.Paper{}, fmt.Errorf("saved, but the index could not be updated: %w", err)
		}
		return w.lib.DB().Paper(ctx, ref)
	})
}

// onlineState is the workspace's metadata lookups: one at a time, and the
// report of the last.
type onlineState struct {
	base *metadata.Online // from Options; nil = the public services
	// mu guards running and last; it is held only to read or update them,
	// never while a lookup runs.
	mu      sync.Mutex
	running bool
	last    OnlineReport
}

// OnlineReport is what a metadata lookup did: for each paper with a DOI or
// an arXiv id, what was written or why nothing was.
type OnlineReport struct {
	Running  bool              `json:"running"`
	Started  time.Time         `json:"started"`
	Finished time.Time         `json:"finished"`
	Papers   int               `json:"papers"`  // papers looked up
	Updated  int               `json:"updated"` // papers whose metadata.json changed
	Failed   int               `json:"failed"`  // lookups that failed (Reports say why)
	Reports  []metadata.Report `json:"reports"`
}

// ErrOffline is a lookup the user has not allowed.
var ErrOffline = errors.New("looking metadata up online is switched off: switch it on in Settings first")

// online returns the lookup client with the user's settings.
func (w *Workspace) onlineClient(s settings.Settings) *metadata.Online {
	o := &metadata.Online{Contact: s.ContactEmail}
	if b := w.online.base; b != nil {
		o.CrossrefBase, o.ArxivBase, o.Timeout, o.Gap, o.Client = b.CrossrefBase, b.ArxivBase, b.Timeout, b.Gap, b.Client
	}
	return o
}

// LookupMetadata looks up online the papers that have a DOI or an arXiv
// id, when the user allowed it (settings.MetadataOnline) or force says
// the user asked just now (the command line's --online): each paper not
// looked up before, or all when again. What is found goes to metadata.json
// (metadata.Lookup: never over the user's edits), then the index is
// brought up to date. One lookup runs at a time; a second call while one
// runs returns the report so far.
func (w *Workspace) LookupMetadata(ctx context.Context, force, again bool) (OnlineReport, error) {
	return call(ctx, w, func(ctx context.Context) (OnlineReport, error) {
		s, err := w.cfg.Settings()
		if err != nil && !force {
			return OnlineReport{}, err
		}
		if !s.MetadataOnline && !force {
			return OnlineReport{}, invalid(ErrOffline)
		}
		w.online.mu.Lock()
		if w.online.running {
			r := w.online.last
			w.online.mu.Unlock()
			return r, nil
		}
		w.online.running = true
		w.online.last = OnlineReport{Running: true, Started: w.now(), Reports: []metadata.Report{}}
		w.online.mu.Unlock()
		report := w.lookup(ctx, w.onlineClient(s), again)
		w.online.mu.Lock()
		w.online.running = false
		w.online.last = report
		w.online.mu.Unlock()
		return report, ctx.Err()
	})
}

func (w *Workspace) lookup(ctx context.Context, o *metadata.Online, again bool) OnlineReport {
	r := OnlineReport{Started: w.now(), Reports: []metadata.Report{}}
	papers, err := w.lib.DB().Papers(ctx)
	if err != nil {
		r.Failed++
		r.Reports = append(r.Reports, metadata.Report{Error: "the library could not be read: " + err.Error()})
		r.Finished = w.now()
		return r
	}
	root := w.lib.Root()
	for _, p := range papers {
		if ctx.Err() != nil {
			break
		}
		if p.DOI == "" && p.ArxivID == "" {
			continue
		}
		if !again {
			if d, err := metadata.Load(ctx, root, p.Ref); err == nil && (d.Source[metadata.Title] == metadata.SourceCrossref ||
				d.Source[metadata.Title] == metadata.SourceArxiv || d.Source["authors"] == metadata.SourceCrossref || d.Source["authors"] == metadata.SourceArxiv) {
				continue // looked up before
			}
		}
		rep := o.Lookup(ctx, root, p.Ref, p.DOI, p.ArxivID)
		r.Papers++
		if rep.Error != "" {
			r.Failed++
			w.log.Info("metadata lookup", "ref", p.Ref, "err", rep.Error)
		} else if len(rep.Wrote) > 0 {
			r.Updated++
		}
		r.Reports = append(r.Reports, rep)
		w.online.mu.Lock()
		w.online.last.Papers, w.online.last.Updated, w.online.last.Failed = r.Papers, r.Updated, r.Failed
		w.online.last.Reports = append([]metadata.Report(nil), r.Reports...)
		w.online.mu.Unlock()
	}
	if r.Updated > 0 && ctx.Err() == nil {
		if _, err := w.lib.Sync(ctx); err != nil && ctx.Err() == nil {
			w.log.Error("reindex after the metadata lookup", "err", err)
		}
	}
	r.Finished = w.now()
	return r
}

// MetadataLookup reports the last (or running) lookup.
func (w *Workspace) MetadataLookup() OnlineReport {
	w.online.mu.Lock()
	defer w.online.mu.Unlock()
	r := w.online.last
	r.Running = w.online.running
	if r.Reports == nil {
		r.Reports = []metadata.Report{}
	}
	return r
}

// lookupIfAllowed starts a lookup in the background when the user allowed
// lookups: after the first indexing of the app's vault, never inside it.
func (w *Workspace) lookupIfAllowed() {
	s, err := w.cfg.Settings()
	if err != nil || !s.MetadataOnline {
		return
	}
	_, _ = w.tasks.start(func(ctx context.Context) {
		if _, err := w.LookupMetadata(ctx, false, false); err != nil && ctx.Err() == nil {
			w.log.Warn("metadata lookup", "err", err)
		}
	})
}

// isStarted reports whether Start ran: the app's vault, not the command
// line's, which looks up only with --online.
func (w *Workspace) isStarted() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.started
}
