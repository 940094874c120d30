package workspace

import (
	"context"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/intake"
)

// Add adds PDFs (files, or the PDFs in folders) to the vault as papers,
// then indexes them, so that they are searchable when it returns.
// Progress goes out as intake:progress events.
func (w *Workspace) Add(ctx context.Context, paths []string) (*intake.Report, error) {
	return w.intake(ctx, func(ctx context.Context, opts intake.Options) (*intake.Report, error) {
		opts.Describe = intake.PDFDescriber(w.lib.Extractor())
		return intake.Add(ctx, w.Root(), paths, opts)
	})
}

// ImportZotero imports a Zotero data folder (read only), then indexes.
func (w *Workspace) ImportZotero(ctx context.Context, dir string) (*intake.Report, error) {
	return w.intake(ctx, func(ctx context.Context, opts intake.Options) (*intake.Report, error) {
		return intake.ImportZotero(ctx, dir, w.Root(), opts)
	})
}

// ImportBibTeX imports a BibTeX/BibLaTeX file and the PDFs its file fields
// name, then indexes.
func (w *Workspace) ImportBibTeX(ctx context.Context, file string) (*intake.Report, error) {
	return w.intake(ctx, func(ctx context.Context, opts intake.Options) (*intake.Report, error) {
		return intake.ImportBibTeX(ctx, file, w.Root(), opts)
	})
}

// ImportCSL imports a CSL-JSON file, then indexes.
func (w *Workspace) ImportCSL(ctx context.Context, file string) (*intake.Report, error) {
	return w.intake(ctx, func(ctx context.Context, opts intake.Options) (*intake.Report, error) {
		return intake.ImportCSL(ctx, file, w.Root(), opts)
	})
}

func (w *Workspace) intake(ctx context.Context, run func(context.Context, intake.Options) (*intake.Report, error)) (*intake.Report, error) {
	return call(ctx, w, func(ctx context.Context) (*intake.Report, error) {
		opts := intake.Options{Now: w.now, Progress: func(p intake.Progress) {
			w.emit(events.IntakeProgress, events.IntakeProgressEvent{Done: p.Done, Total: p.Total, Current: p.Current})
		}}
		rep, err := run(ctx, opts)
		if err != nil {
			return nil, err
		}
		if rep.Changed() {
			if _, err := w.lib.Sync(ctx); err != nil {
				return rep, err
			}
			w.emit(events.LibraryChanged, events.LibraryChangedEvent{})
		}
		return rep, nil
	})
}
