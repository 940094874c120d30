package intake

import (
	"context"
	"io"
	"os"
	"path/filepath"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/vault"
)

// refreshPDF brings the PDF of the paper at ref (an import's paper, found
// again by its key) up to date with the entry's file, when the source's
// file is another one now (Zotero's PDF replaced, or the item's first PDF
// deleted). Sizes and times tell a change cheaply (another size, or the
// source's file written after the vault's copy); only then are the files
// hashed.
// The vault's copy is replaced only while it is still the one the import
// copied in (its hash is the record's): a copy the user annotated or
// replaced is kept, and note says so. It returns the new copy's hash when
// it replaced it.
func (p *placer) refreshPDF(ctx context.Context, e entry, ref string) (sum, note string, err error) {
	rec := p.meta[ref].record()
	rel := p.pdfOf[ref]
	if e.File == "" || rec.SHA256 == "" || rel == "" {
		return "", "", nil
	}
	src, err := os.Stat(e.File)
	if err != nil || !src.Mode().IsRegular() {
		return "", "", nil
	}
	dst := filepath.Join(p.root, filepath.FromSlash(rel))
	cur, err := os.Lstat(dst)
	// The same size and not written since the copy was made: the same file.
	if err != nil || !cur.Mode().IsRegular() || cur.Size() == src.Size() && !src.ModTime().After(cur.ModTime()) {
		return "", "", nil
	}
	h, err := vault.Open(p.root, rel, vault.KindPDF)
	if err != nil {
		return "", "", nil
	}
	vaultSum, err := hashHandle(ctx, h)
	if err != nil {
		return "", "", err
	}
	if vaultSum != rec.SHA256 {
		return "", "the PDF in the source changed, but the vault's copy was changed too (annotated?), so it is kept.", nil
	}
	f, _, err := openPDF(e.File)
	if err != nil {
		return "", "the PDF in the source changed, but the new one is refused: " + err.Error(), nil
	}
	defer f.Close()
	newSum, err := hashReader(&ctxReader{ctx: ctx, r: f})
	if err != nil {
		return "", "", err
	}
	if newSum == rec.SHA256 {
		return "", "", nil
	}
	if ref2, ok := p.byHash[newSum]; ok && ref2 != ref {
		return "", "the PDF in the source changed to one already in the vault as " + ref2 + ", so the copy here is kept.", nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", "", err
	}
	if err := atomicfile.WriteFrom(dst, &ctxReader{ctx: ctx, r: f}, 0o644); err != nil {
		return "", "", err
	}
	delete(p.byHash, rec.SHA256)
	p.byHash[newSum] = ref
	return newSum, "", nil
}
