package intake

import (
	"path/filepath"
	"strings"
)

// LinkedBase says that a Zotero import left out PDFs linked relative to
// Zotero's Linked Attachment Base Directory because that folder is unknown
// (no base was given and the default Zotero profile names none) or is not
// where they are: the app then offers to choose the folder and import
// again (which is idempotent by Zotero key, so only those papers are added).
type LinkedBase struct {
	DataDir string `json:"dataDir"` // the Zotero data folder imported, to import again
	BaseDir string `json:"baseDir"` // the base directory used; "" when none was given or found
	Missing int    `json:"missing"` // entries whose linked PDF was not found because of it
}

// NoteLinkedBase sets rep.LinkedBase after ImportZotero(dataDir, …, opts)
// when entries are without a PDF because of the base directory: their path
// could not be resolved for want of a base, or named a file under the base
// used that does not exist. It reads only the default Zotero profile's
// prefs.js (as the import did) when opts gives no base.
func NoteLinkedBase(rep *Report, dataDir string, opts Options) {
	base := ""
	if opts.ZoteroBaseDir != "" {
		if abs, err := filepath.Abs(opts.ZoteroBaseDir); err == nil {
			base = abs
		}
	} else {
		base = profileBaseDir()
	}
	storage := ""
	if abs, err := filepath.Abs(dataDir); err == nil {
		storage = filepath.Join(abs, "storage") + string(filepath.Separator)
	}
	n := 0
	for _, it := range rep.WithoutPDF {
		switch {
		case it.File == "" && it.Why == noBase:
			n++
		case base != "" && it.File != "" && strings.HasPrefix(it.File, base+string(filepath.Separator)) &&
			(storage == "" || !strings.HasPrefix(it.File, storage)):
			n++
		}
	}
	if n == 0 {
		return
	}
	rep.LinkedBase = &LinkedBase{DataDir: dataDir, BaseDir: base, Missing: n}
}
