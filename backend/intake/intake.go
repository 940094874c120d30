// Package intake brings papers into a vault (SPEC §1, §12): PDFs a user
// adds, a Zotero library, a BibTeX or CSL-JSON file. Each paper becomes a
// folder papers/<slug>/ holding paper.pdf and a metadata.json. Intake never
// overwrites a file: a new paper gets a new folder, and an import run again
// only rewrites the metadata.json fields its previous run wrote and the
// user has not changed since (the "imported" record in metadata.json).
//
// Where files come from: the files a user names, and the PDFs a Zotero
// library or a .bib/.json file points at (relative paths are relative to
// that file, absolute paths are taken as written, since a bibliography's
// PDFs often live elsewhere; Zotero's "attachments:" paths are relative to
// its Linked Attachment Base Directory and may not leave it). Every such source must be a regular file that
// starts as a PDF does ("%PDF-"), outside /proc, /sys and /dev; anything else
// is refused with the reason. Writes in the vault go beneath its root only:
// folders are made one at a time without following links, and files are
// written with atomicfile.
package intake

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Item is what happened to one file or entry.
type Item struct {
	File    string   `json:"file,omitempty"`    // the source PDF (or the .bib/.json entry's file field)
	Key     string   `json:"key,omitempty"`     // Zotero key or citation key
	Title   string   `json:"title,omitempty"`   // the paper's title, as imported
	Ref     string   `json:"ref,omitempty"`     // the paper folder in the vault
	Why     string   `json:"why,omitempty"`     // why it was skipped or failed, a sentence
	Changed []string `json:"changed,omitempty"` // metadata.json keys an update rewrote
	Note    string   `json:"note,omitempty"`    // what else to know (other PDFs of the item, not copied)
}

// Report is what an Add or an import did. Every entry it was given is in
// exactly one list.
type Report struct {
	Added      []Item `json:"added"`
	Updated    []Item `json:"updated"`
	Unchanged  []Item `json:"unchanged"`
	Skipped    []Item `json:"skipped"`    // refused files, files already in the vault
	WithoutPDF []Item `json:"withoutPdf"` // entries with no PDF (or a missing one)
	Errors     []Item `json:"errors"`     // entries that failed for another reason
	// Gone are papers an earlier import of the same source brought in
	// whose entry the source no longer has (deleted, or in Zotero's
	// trash). They stay in the vault; this list is not part of Total.
	Gone []Item `json:"gone"`
	// LinkedBase is set after a Zotero import whose linked PDFs were not
	// found for want of the right base directory (linkbase.go).
	LinkedBase *LinkedBase `json:"linkedBase,omitempty"`
}

func newReport() *Report {
	return &Report{Added: []Item{}, Updated: []Item{}, Unchanged: []Item{}, Skipped: []Item{}, WithoutPDF: []Item{}, Errors: []Item{}, Gone: []Item{}}
}

// Total is the number of entries the report accounts for.
func (r *Report) Total() int {
	return len(r.Added) + len(r.Updated) + len(r.Unchanged) + len(r.Skipped) + len(r.WithoutPDF) + len(r.Errors)
}

// Changed reports whether the run wrote anything in the vault.
func (r *Report) Changed() bool { return len(r.Added)+len(r.Updated) > 0 }

// Progress is sent before each entry is handled (Done of Total finished)
// and once at the end (Done == Total).
type Progress struct {
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	Current string `json:"current"` // the file or entry being handled
}

// Describer reads what a PDF says about itself (title, authors, year,
// identifiers). The workspace passes one over the library's extractor.
type Describer func(ctx context.Context, path string) (Described, error)

// Described is what a Describer found; zero fields were not found.
type Described struct {
	Title    string
	Authors  []string
	Year     int
	DOI      string
	ArxivID  string
	Abstract string
}

// Options are an intake run's knobs. Zero values mean defaults.
type Options struct {
	Describe Describer        // nil = metadata from the file name only (Add)
	Progress func(Progress)   // nil = none
	Now      func() time.Time // nil = time.Now
	// ZoteroBaseDir is Zotero's Linked Attachment Base Directory, against
	// which "attachments:" paths are resolved; "" = the one in the default
	// Zotero profile's prefs.js ($HOME/.zotero/zotero).
	ZoteroBaseDir string
}

func (o *Options) defaults() {
	if o.Progress == nil {
		o.Progress = func(Progress) {}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// ErrRefused marks a failure whose message is a sentence for the user: a
// folder that is not one, a file that is not a PDF, a path it may not write.
var ErrRefused = errors.New("refused")

// userError is a failure whose message is a sentence for the user.
type userError struct{ msg string }

func (e *userError) Error() string        { return e.msg }
func (e *userError) Is(target error) bool { return target == ErrRefused }

func refuse(format string, args ...any) error { return &userError{fmt.Sprintf(format, args...)} }
