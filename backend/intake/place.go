package intake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentero/agentero/backend/metadata"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/ident"
	"github.com/agentero/agentero/backend/vault"
)

// record is metadata.json's "imported" object, which package metadata owns
// with the rest of the file's provenance.
type record = metadata.Imported

// entry is one paper to bring in, from any source.
type entry struct {
	From   string         // file, zotero, bibtex, csl
	Key    string         // identity within the source; "" for added files
	File   string         // the source PDF; "" when the entry has none
	Folder string         // vault-relative folder to create the paper in ("papers", "papers/ML")
	Values map[string]any // metadata.json keys the source sets (nil or "" values are not set)
	Title  string
	// Missing says why the entry has no File, when the source knows;
	// MissingFile is the path the source names that is not there.
	Missing, MissingFile string
	// Source is the Zotero data folder or bibliography file (absolute).
	Source string
	// FromPDF: the source knows little of this paper (a standalone PDF in
	// Zotero), so what the PDF says fills the fields it does not set.
	FromPDF bool
	// Note is said of the entry in the report (other PDFs not copied).
	Note string
	// Notes is the source's notes on the paper as Markdown (Zotero's child
	// notes), written to NOTES.md when the paper has none.
	Notes string
	// sha256 is the hash of the PDF an update copied in anew ("" = kept).
	sha256 string
	// Slug parts.
	Authors []string
	Year    int
}

// placer knows the vault's papers, to recognise an entry that is already in
// it, and creates and updates paper folders beneath the vault's root.
type placer struct {
	root   string
	byKey  map[string]string   // from+"\x00"+key → ref
	byDOI  map[string]string   // doi → ref
	byHash map[string]string   // sha256 → ref (known or computed)
	bySize map[int64][]string  // PDF size → refs whose hash is not known yet
	pdfOf  map[string]string   // ref → vault-relative PDF
	meta   map[string]metaFile // ref → its metadata.json as read
	// present are the keys the source being imported has (nil when not
	// known for sure: every key counts as present): a paper of this source
	// whose key is not among them was re-keyed or moved when its PDF turns
	// up under another key.
	present map[string]bool
	// collections are the folders (absolute) outsidePapers found holding
	// no PDF: collection folders, which a run only adds paper folders to,
	// so they are not listed again for every paper put in them.
	collections map[string]bool
}

// stillThere reports whether the source being imported still has key.
func (p *placer) stillThere(key string) bool { return p.present == nil || p.present[key] }

type metaFile struct {
	raw    map[string]json.RawMessage
	exists bool
}

// newPlacer reads what the vault at root holds: its papers, their PDFs'
// sizes and their metadata.json files.
func newPlacer(ctx context.Context, root string) (*placer, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, refuse("%s is not a folder.", root)
	}
	if err := vault.CheckStateFolder(abs); err != nil {
		return nil, err
	}
	snap, err := vault.Scan(abs)
	if err != nil {
		return nil, err
	}
	p := &placer{root: abs, byKey: map[string]string{}, byDOI: map[string]string{}, byHash: map[string]string{},
		bySize: map[int64][]string{}, pdfOf: map[string]string{}, meta: map[string]metaFile{}, collections: map[string]bool{}}
	for _, paper := range snap.Papers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p.pdfOf[paper.Ref] = paper.PDF
		mf := metaFile{raw: map[string]json.RawMessage{}}
		if paper.Metadata != "" {
			if data, err := vault.ReadFile(ctx, abs, paper.Metadata, vault.KindMetadata); err == nil {
				if json.Unmarshal(data, &mf.raw) == nil {
					mf.exists = true
				} else {
					mf.raw = map[string]json.RawMessage{}
				}
			}
		}
		p.meta[paper.Ref] = mf
		rec := mf.record()
		if rec.Key != "" {
			p.byKey[rec.From+"\x00"+rec.Key] = paper.Ref
		}
		var doi string
		if json.Unmarshal(mf.raw["doi"], &doi) == nil {
			if doi = ident.NormalizeDOI(doi); doi != "" {
				p.byDOI[doi] = paper.Ref
			}
		}
		if rec.SHA256 != "" {
			p.byHash[rec.SHA256] = paper.Ref
		} else {
			p.bySize[paper.Size] = append(p.bySize[paper.Size], paper.Ref)
		}
	}
	return p, nil
}

func (m metaFile) record() record { return metadata.ImportedOf(m.raw) }

// findHash returns the paper whose PDF has this size and hash, hashing the
// vault's PDFs of the same size (through the vault's opener) on demand.
func (p *placer) findHash(ctx context.Context, size int64, sum string) string {
	if ref, ok := p.byHash[sum]; ok {
		return ref
	}
	refs := p.bySize[size]
	delete(p.bySize, size)
	for _, ref := range refs {
		h, err := vault.Open(p.root, p.pdfOf[ref], vault.KindPDF)
		if err != nil {
			continue
		}
		got, err := hashHandle(ctx, h)
		if err == nil {
			p.byHash[got] = ref
		}
	}
	return p.byHash[sum]
}

func hashHandle(ctx context.Context, h *vault.Handle) (string, error) {
	defer h.Close()
	hw := newHashWriter()
	if _, err := h.Copy(ctx, hw); err != nil {
		return "", err
	}
	return hw.sum(), nil
}

// mkdirs makes the vault-relative folder rel, one component at a time,
// refusing a component that is a link or not a folder: intake writes
// beneath the vault only, never through a link.
func (p *placer) mkdirs(rel string) error {
	if !vault.ValidRel(rel) {
		return refuse("%s is not a folder Agentero may write in.", rel)
	}
	cur := p.root
	for _, part := range strings.Split(rel, "/") {
		cur = filepath.Join(cur, part)
		st, err := os.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Mkdir(cur, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
			continue
		case err != nil:
			return err
		case st.Mode()&fs.ModeSymlink != 0:
			return refuse("%s is a link; Agentero does not write through links.", strings.TrimPrefix(cur, p.root+"/"))
		case !st.IsDir():
			return refuse("%s is a file, not a folder.", strings.TrimPrefix(cur, p.root+"/"))
		}
	}
	return nil
}

// outsidePapers is the folder rel (a collection's folder), with any of its
// folders that is a paper's folder (one holding a PDF: a paper slugged as
// a collection is named) renamed "<name> (collection)": a paper's folder
// is a paper, and one put inside it would be taken for part of it.
// A folder found holding no PDF is remembered (p.collections): a folder
// that exists is never made a paper's (create takes a new name then), so
// it stays a collection's for the rest of the run, and a collection of
// thousands of papers is not listed again for each one put in it.
func (p *placer) outsidePapers(rel string) string {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		for {
			dir := filepath.Join(p.root, filepath.FromSlash(strings.Join(parts[:i+1], "/")))
			if p.collections[dir] {
				break
			}
			pdf, exists := holdsPDF(dir)
			if !pdf {
				if exists && p.collections != nil {
					p.collections[dir] = true
				}
				break
			}
			parts[i] += " (collection)"
		}
	}
	return strings.Join(parts, "/")
}

// holdsPDF reports whether dir holds a PDF file directly, and whether dir
// is a folder that could be listed.
func holdsPDF(dir string) (pdf, listed bool) {
	f, err := os.Open(dir)
	if err != nil {
		return false, false
	}
	defer f.Close()
	for {
		entries, err := f.ReadDir(256)
		for _, e := range entries {
			if e.Type().IsRegular() && strings.EqualFold(path.Ext(e.Name()), ".pdf") {
				return true, true
			}
		}
		if err == io.EOF {
			return false, true
		}
		if err != nil {
			return false, false
		}
	}
}

// create makes a new paper folder under e.Folder named by slug (with -2,
// -3 … when taken), writes metadata.json and then the PDF, and returns the
// new paper's ref. An existing folder is never reused.
func (p *placer) create(ctx context.Context, e entry, src *os.File, sum string) (string, error) {
	e.Folder = p.outsidePapers(e.Folder)
	if err := p.mkdirs(e.Folder); err != nil {
		return "", err
	}
	base := slug(e.Authors, e.Year, e.Title, e.File)
	var ref, dir string
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = base + "-" + strconv.Itoa(i)
		}
		ref = path.Join(e.Folder, name)
		dir = filepath.Join(p.root, filepath.FromSlash(ref))
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || i > 1000 {
			return "", err
		}
	}
	values := marshalValues(e.Values)
	raw := map[string]json.RawMessage{}
	for k, v := range values {
		raw[k] = v
	}
	metadata.SetSources(raw, sortedKeys(values), values, e.From)
	rec := record{From: e.From, Key: e.Key, Source: e.Source, File: e.File, SHA256: sum, Values: values}
	if err := metadata.WriteImported(dir, raw, rec); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	if err := atomicfile.WriteFrom(filepath.Join(dir, "paper.pdf"), &ctxReader{ctx: ctx, r: src}, 0o644); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("copy %s: %w", e.File, err)
	}
	if _, err := writeNotes(dir, e.Notes); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("write %s/%s: %w", ref, NotesFile, err)
	}
	p.pdfOf[ref] = path.Join(ref, "paper.pdf")
	p.meta[ref] = metaFile{raw: raw, exists: true}
	p.byHash[sum] = ref
	if e.Key != "" {
		p.byKey[e.From+"\x00"+e.Key] = ref
	}
	if doi, _ := e.Values["doi"].(string); doi != "" {
		p.byDOI[ident.NormalizeDOI(doi)] = ref
	}
	return ref, nil
}

// update brings the metadata.json of the paper at ref up to date with e:
// a field is written when it is missing or still holds what the previous
// import wrote; a field the user changed is kept. It returns the keys it
// changed; nothing is written when nothing changed.
func (p *placer) update(e entry, ref string) ([]string, error) {
	mf := p.meta[ref]
	raw := map[string]json.RawMessage{}
	for k, v := range mf.raw {
		raw[k] = v
	}
	old := mf.record()
	values := marshalValues(e.Values)
	if e.FromPDF {
		// What was read from the PDF stays the import's until the source sets it.
		for k, v := range old.Values {
			if _, ok := values[k]; !ok {
				values[k] = v
			}
		}
	}
	changed := metadata.MergeImport(raw, old, values)
	metadata.SetSources(raw, changed, values, e.From)
	rec := record{From: e.From, Key: e.Key, Source: e.Source, File: e.File, SHA256: old.SHA256, Values: values}
	if e.sha256 != "" {
		rec.SHA256 = e.sha256
	}
	if rec.Source == "" {
		rec.Source = old.Source
	}
	if rec.File == "" {
		rec.File = old.File
	}
	dir := filepath.Join(p.root, filepath.FromSlash(ref))
	if e.Notes != "" {
		// Notes written in the source since: a paper without notes gets them.
		if _, err := vault.Resolve(p.root, ref); err == nil {
			if wrote, err := writeNotes(dir, e.Notes); err != nil {
				return nil, fmt.Errorf("write %s/%s: %w", ref, NotesFile, err)
			} else if wrote {
				changed = append(changed, "notes")
			}
		}
	}
	if len(changed) == 0 && metadata.ImportedOf(raw).Same(rec) {
		return nil, nil
	}
	if _, err := vault.Resolve(p.root, ref); err != nil {
		return nil, refuse("%s is not a folder Agentero may write in.", ref)
	}
	if st, err := os.Lstat(filepath.Join(dir, "metadata.json")); err == nil && !st.Mode().IsRegular() {
		return nil, refuse("%s/metadata.json is not a regular file; it is left alone.", ref)
	}
	if err := metadata.WriteImported(dir, raw, rec); err != nil {
		return nil, err
	}
	p.meta[ref] = metaFile{raw: raw, exists: true}
	if e.Key != "" {
		p.byKey[e.From+"\x00"+e.Key] = ref
	}
	return changed, nil
}

// marshalValues turns the set values (non-empty strings, lists, non-zero
// years) into JSON.
func marshalValues(vals map[string]any) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range vals {
		switch x := v.(type) {
		case nil:
			continue
		case string:
			if strings.TrimSpace(x) == "" {
				continue
			}
		case int:
			if x == 0 {
				continue
			}
		case []string:
			if len(x) == 0 {
				continue
			}
		}
		b, err := json.Marshal(v)
		if err == nil {
			out[k] = b
		}
	}
	return out
}
