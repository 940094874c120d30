package pdf

// OCR: pages without a usable text layer are drawn by PDFium in a worker
// and read by Tesseract's command line in the parent, a process per page.
// The worker runs no program (see workerEnviron); Tesseract reads only the
// PNG we drew, never the PDF.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/agentero/agentero/backend/subprocess"
	"github.com/agentero/agentero/backend/userdir"
)

// ErrNoOCR is OCR asked for on a machine without Tesseract.
var ErrNoOCR = errors.New("Tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng), so pages without a text layer stay unread")

// ocrDPI is the resolution pages are drawn at for Tesseract, which reads
// body text best with capitals some 30 pixels tall: 300 dpi for 10-pt type.
const ocrDPI = 300

// ocrPageTimeout bounds Tesseract on one page; a dense page at 300 dpi
// takes a few seconds on one core.
const ocrPageTimeout = 2 * time.Minute

// ocrVersion names how cached OCR results were made; a change reads pages
// again.
const ocrVersion = "1"

// OCR reads pages (1-based) of the open PDF f from their images: each is
// drawn at 300 dpi in a worker and read by Tesseract, pages side by side
// up to the extractor's worker count, each under ocrPageTimeout. Words keep
// their boxes: each result is a page's text and per-character boxes like
// Chars gives for a text page. sha is f's content hash (hex SHA-256), the
// key of the OCR cache ("" computes it); pages read before are not read
// again. A page Tesseract finds no words on comes back with no text.
// read, when not nil, is called with the count of pages read so far each
// time one more is (from cache or by Tesseract), one call at a time: it
// is what a progress bar shows.
func (e *Extractor) OCR(ctx context.Context, f *os.File, sha string, pages []int, read func(done int)) ([]PageChars, error) {
	var readMu sync.Mutex // serialises read and guards count
	count := 0
	tick := func() {
		if read == nil {
			return
		}
		readMu.Lock()
		defer readMu.Unlock()
		count++
		read(count)
	}
	if sha == "" {
		var err error
		if sha, err = fileHash(f); err != nil {
			return nil, err
		}
	}
	out := make([]PageChars, len(pages))
	var todo []int // indexes in pages of those not read before
	for k, n := range pages {
		if pc, ok := e.cachedOCR(sha, n); ok {
			out[k] = pc
			tick()
		} else {
			todo = append(todo, k)
		}
	}
	if len(todo) == 0 {
		return out, nil
	}
	tess, err := exec.LookPath("tesseract")
	if err != nil {
		return nil, ErrNoOCR
	}
	var drawing sync.Mutex // one drawing at a time: the workers share f's offset
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(e.workers)
	for _, k := range todo {
		n := pages[k]
		g.Go(func() error {
			drawing.Lock()
			img, err := e.Render(gctx, f, n, nil, RenderOptions{MaxDPI: ocrDPI, Gray: true})
			drawing.Unlock()
			if err != nil {
				return fmt.Errorf("ocr page %d: %w", n, err)
			}
			pc, err := tesseract(gctx, tess, n, img)
			if err != nil {
				return fmt.Errorf("ocr page %d: %w", n, err)
			}
			out[k] = pc
			e.cacheOCR(sha, pc)
			tick()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// CanOCR reports whether Tesseract is installed (on PATH) now.
func (e *Extractor) CanOCR() bool {
	_, err := exec.LookPath("tesseract")
	return err == nil
}

// tesseract reads one page's image with the tesseract program at tess.
func tesseract(ctx context.Context, tess string, n int, img *Image) (PageChars, error) {
	ctx, cancel := context.WithTimeout(ctx, ocrPageTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tess, "stdin", "stdout", "-l", "eng", "--dpi", strconv.Itoa(ocrDPI), "tsv")
	// One thread a page: pages run side by side, and Tesseract's own
	// threads only contend with them. Nothing of the app's environment.
	cmd.Env = []string{"OMP_THREAD_LIMIT=1", "LC_ALL=C"}
	cmd.Stdin = bytes.NewReader(img.PNG)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := subprocess.Start(cmd); err != nil {
		return PageChars{}, fmt.Errorf("start tesseract: %w", err)
	}
	if err := cmd.Wait(); err != nil {
		if ctx.Err() != nil {
			return PageChars{}, fmt.Errorf("tesseract took longer than %v", ocrPageTimeout)
		}
		return PageChars{}, fmt.Errorf("tesseract: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return pageChars(n, tsvChars(stdout.Bytes(), img)), nil
}

// tsvChars turns Tesseract's TSV (level, page, block, paragraph, line,
// word, left, top, width, height, confidence, text) into a page's
// characters: words joined by spaces, lines by line breaks, each rune of a
// word with its share of the word's box, in points.
func tsvChars(tsv []byte, img *Image) rawChars {
	raw := rawChars{width: img.PageWidth, height: img.PageHeight}
	s := img.Scale()
	if s <= 0 {
		return raw
	}
	var line string
	sc := bufio.NewScanner(bytes.NewReader(tsv))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 12 || f[0] != "5" {
			continue // the header, and pages, blocks, paragraphs, lines
		}
		word := []rune(strings.TrimSpace(f[11]))
		if len(word) == 0 {
			continue
		}
		var box [4]float64
		for i := range 4 {
			v, err := strconv.ParseFloat(f[6+i], 64)
			if err != nil {
				return raw
			}
			box[i] = v / s
		}
		left, top, width, height := box[0], box[1], box[2], box[3]
		at := strings.Join(f[2:5], ".") // block.paragraph.line
		switch {
		case line == "":
		case at != line:
			raw.runes = append(raw.runes, '\n')
			raw.boxes = append(raw.boxes, [4]float64{})
		default:
			raw.runes = append(raw.runes, ' ')
			raw.boxes = append(raw.boxes, [4]float64{})
		}
		line = at
		each := width / float64(len(word))
		for i, r := range word {
			x0 := left + float64(i)*each
			raw.runes = append(raw.runes, r)
			raw.boxes = append(raw.boxes, [4]float64{round2(x0), round2(top), round2(x0 + each), round2(top + height)})
		}
		if len(raw.runes) >= MaxPageText {
			break
		}
	}
	return raw
}

// fileHash is the hex SHA-256 of f's content.
func fileHash(f *os.File) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, 1<<62)); err != nil {
		return "", fmt.Errorf("hash pdf: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ocrDir is the OCR cache folder of a PDF's hash ("" when there is none).
func (e *Extractor) ocrDir(sha string, make bool) string {
	if e.ocrCache == "" || len(sha) != 64 || strings.Trim(sha, "0123456789abcdef") != "" {
		return ""
	}
	if !make {
		return filepath.Join(e.ocrCache, sha)
	}
	dir, err := userdir.Folder(e.ocrCache, sha)
	if err != nil {
		e.log.Warn("pdf: OCR cache unavailable", "err", err)
		return ""
	}
	return dir
}

func ocrFile(n int) string { return "v" + ocrVersion + "-page-" + strconv.Itoa(n) + ".json" }

// cachedOCR is page n of the PDF with hash sha as OCR read it before.
func (e *Extractor) cachedOCR(sha string, n int) (PageChars, bool) {
	dir := e.ocrDir(sha, false)
	if dir == "" {
		return PageChars{}, false
	}
	data, err := os.ReadFile(filepath.Join(dir, ocrFile(n)))
	if err != nil {
		return PageChars{}, false
	}
	var pc PageChars
	if json.Unmarshal(data, &pc) != nil || pc.Number != n || len([]rune(pc.Text)) != len(pc.Boxes) {
		return PageChars{}, false
	}
	return pc, true
}

// cacheOCR keeps what OCR read of a page; a cache that cannot be written
// costs only a second reading.
func (e *Extractor) cacheOCR(sha string, pc PageChars) {
	dir := e.ocrDir(sha, true)
	if dir == "" {
		return
	}
	data, err := json.Marshal(pc)
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".page-*")
	if err != nil {
		e.log.Warn("pdf: OCR cache", "err", err)
		return
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, ocrFile(pc.Number)))
	}
	if err != nil {
		os.Remove(tmp.Name())
		e.log.Warn("pdf: OCR cache", "err", err)
	}
}

// ocrChars puts what OCR read before in place of the pages of chars it
// read: the characters of a scanned page, or of a garbled text layer, are
// its OCR's. The file is hashed only when the cache holds anything.
func (e *Extractor) ocrChars(f *os.File, chars []PageChars) {
	if e.ocrCache == "" {
		return
	}
	if names, err := os.ReadDir(e.ocrCache); err != nil || len(names) == 0 {
		return
	}
	sha, err := fileHash(f)
	if err != nil {
		return
	}
	for k, pc := range chars {
		if cached, ok := e.cachedOCR(sha, pc.Number); ok {
			chars[k] = cached
		}
	}
}
