package workspace

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/intake"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/usererr"
)

// Add adds PDFs (files, or the PDFs in folders) to the vault as papers,
// then indexes them, so that they are searchable when it returns.
// Progress goes out as intake:progress events.
func (w *Workspace) Add(ctx context.Context, paths []string) (*intake.Report, error) {
	// What the intake reads of each PDF is handed to the index, which
	// then does not extract the added copy again (library.AddReader).
	ex, release := w.lib.AddReader()
	defer release()
	return w.intake(ctx, func(ctx context.Context, opts intake.Options) (*intake.Report, error) {
		opts.Describe = intake.PDFDescriber(ex)
		return intake.Add(ctx, w.Root(), paths, opts)
	})
}

// ImportZotero imports a Zotero data folder (read only), then indexes.
// Files linked relative to Zotero's base directory are found through the
// default Zotero profile.
func (w *Workspace) ImportZotero(ctx context.Context, dir string) (*intake.Report, error) {
	return w.ImportZoteroBase(ctx, dir, "")
}

// ImportZoteroBase is ImportZotero with Zotero's Linked Attachment Base
// Directory given ("" = the one in the default Zotero profile).
func (w *Workspace) ImportZoteroBase(ctx context.Context, dir, baseDir string) (*intake.Report, error) {
	// A standalone PDF in Zotero has no metadata but a title: the rest is
	// read from the PDF, and that reading is handed to the index as Add's.
	ex, release := w.lib.AddReader()
	defer release()
	return w.intake(ctx, func(ctx context.Context, opts intake.Options) (*intake.Report, error) {
		opts.ZoteroBaseDir = baseDir
		opts.Describe = intake.PDFDescriber(ex)
		rep, err := intake.ImportZotero(ctx, dir, w.Root(), opts)
		if rep != nil {
			intake.NoteLinkedBase(rep, dir, opts) // the app offers to choose the base directory
		}
		return rep, err
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
		if errors.Is(err, intake.ErrRefused) {
			return nil, invalid(err)
		}
		if err != nil {
			return nil, err
		}
		if rep.Changed() {
			if _, err := w.lib.Sync(ctx); err != nil {
				return rep, err
			}
			w.emit(events.LibraryChanged, events.LibraryChangedEvent{})
			if w.isStarted() {
				w.lookupIfAllowed() // the app: the new papers' DOIs, when the user allowed it
			}
		}
		return rep, nil
	})
}

// ErrNotVault is a folder that is not a vault yet: it has neither papers/
// nor .agentero/. The app writes nothing there (not even .agentero/) until
// the user chooses what to make of it: arrange its PDFs, copy them, or use
// it as it is.
var ErrNotVault = errors.New("not a vault yet")

// Folder is what a folder chosen as a vault holds: its path and, when it
// is not a vault yet, what was found in it.
type Folder struct {
	Path  string        `json:"path"`
	Found *intake.Found `json:"found"`
}

// InspectFolder reports what the folder dir holds; the error is
// ErrNotVault (with a sentence saying what was found) when it is not a
// vault yet. It writes nothing.
func InspectFolder(dir string) (*Folder, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, invalid(err)
	}
	found, err := intake.Inspect(abs)
	if err != nil {
		return nil, invalid(err)
	}
	f := &Folder{Path: abs, Found: found}
	if found.Vault {
		return f, nil
	}
	what := "it is empty of PDFs"
	if n := len(found.TopPDFs) + len(found.NestedPDFs); n > 0 {
		what = fmt.Sprintf("it holds %d PDF%s but no papers/ folder", n, plural(n))
	}
	return f, usererr.Mark(ErrNotVault, fmt.Errorf("%s is not a vault yet: %s", abs, what))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// PlanArrangement previews how the loose PDFs of the folder dir would be
// arranged into papers/<slug>/paper.pdf, reading each PDF's title, authors
// and year with a PDF extractor of its own (the folder is no vault yet, so
// no workspace is open on it). Only page 1 of each PDF is read (with its
// Info and XMP), which is all that names a paper: the new vault's index
// reads the PDFs whole once the user has accepted. It writes nothing but
// the extractor's cache.
func PlanArrangement(ctx context.Context, dir string, opts Options) ([]intake.Move, error) {
	ex := opts.Extractor
	if ex == nil {
		var cache string
		if opts.CacheDir != "" {
			cache = filepath.Join(opts.CacheDir, "wazero")
		}
		px := pdf.NewExtractor(pdf.Options{Workers: 1, CacheDir: cache, Timeout: opts.ExtractTimeout, Logger: opts.Logger})
		defer px.Close()
		ex = px
	}
	moves, err := intake.PlanArrangement(ctx, dir, intake.Options{Describe: intake.PDFHeadDescriber(ex)})
	if errors.Is(err, intake.ErrRefused) {
		return nil, invalid(err)
	}
	return moves, err
}

// ApplyArrangement performs a previewed arrangement in the folder dir
// (copies instead of moves when copy is set); the folder then holds a
// papers/ folder and can be opened as a vault.
func ApplyArrangement(ctx context.Context, dir string, moves []intake.Move, copy bool) (*intake.Report, error) {
	rep, err := intake.ApplyArrangement(ctx, dir, moves, copy)
	if errors.Is(err, intake.ErrRefused) {
		return nil, invalid(err)
	}
	return rep, err
}
