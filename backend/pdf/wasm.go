package pdf

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"unicode/utf16"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/enums"
	pdfiumerrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// wasmReader is a pdfReader over PDFium compiled to WebAssembly (go-pdfium).
type wasmReader struct {
	inst pdfium.Pdfium
	doc  references.FPDF_DOCUMENT
}

// openWasm opens f with inst. Files are read through a reader callback, so
// the module sees no file system at all.
func openWasm(inst pdfium.Pdfium, f *os.File, size int64) (*wasmReader, error) {
	opened, err := inst.OpenDocument(&requests.OpenDocument{FileReader: f, FileReaderSize: size})
	if err != nil {
		return nil, openError(err)
	}
	return &wasmReader{inst: inst, doc: opened.Document}, nil
}

// openError maps PDFium's open errors to ours: a password or an unknown
// security handler means encrypted; anything else (bad format, unreadable
// file, a trap inside PDFium) means damaged.
func openError(err error) error {
	if errors.Is(err, pdfiumerrors.ErrPassword) || errors.Is(err, pdfiumerrors.ErrSecurity) {
		return fmt.Errorf("open pdf: %w", ErrEncrypted)
	}
	return fmt.Errorf("open pdf: %w: %w", ErrDamaged, err)
}

func (w *wasmReader) close() {
	w.inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: w.doc})
}

func (w *wasmReader) pageCount() (int, error) {
	count, err := w.inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: w.doc})
	if err != nil {
		return 0, err
	}
	return count.PageCount, nil
}

func (w *wasmReader) textPage(i int) (references.FPDF_TEXTPAGE, func(), error) {
	tp, err := w.inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{
		Page: requests.Page{ByIndex: &requests.PageByIndex{Document: w.doc, Index: i}},
	})
	if err != nil {
		return "", nil, fmt.Errorf("load text page: %w", err)
	}
	return tp.TextPage, func() { w.inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage}) }, nil
}

func (w *wasmReader) pageText(i int) (string, error) {
	tp, done, err := w.textPage(i)
	if err != nil {
		return "", err
	}
	defer done()
	return w.textOf(tp)
}

// textOf is a loaded text page's text.
func (w *wasmReader) textOf(tp references.FPDF_TEXTPAGE) (string, error) {
	n, err := w.inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp})
	if err != nil {
		return "", fmt.Errorf("count chars: %w", err)
	}
	if n.Count <= 0 {
		return "", nil
	}
	text, err := w.inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp, Count: n.Count})
	if err != nil {
		return "", fmt.Errorf("get text: %w", err)
	}
	return text.Text, nil
}

func (w *wasmReader) pageLabel(i int) string {
	label, err := w.inst.FPDF_GetPageLabel(&requests.FPDF_GetPageLabel{Document: w.doc, Page: i})
	if err != nil {
		return ""
	}
	return strings.TrimSpace(label.Label)
}

func (w *wasmReader) metaText(tag string) string {
	v, err := w.inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: w.doc, Tag: tag})
	if err != nil {
		return ""
	}
	return v.Value
}

func (w *wasmReader) firstBookmark(parent bookmark) (bookmark, bool) {
	req := &requests.FPDFBookmark_GetFirstChild{Document: w.doc}
	if parent != nil {
		p := parent.(references.FPDF_BOOKMARK)
		req.Bookmark = &p
	}
	child, err := w.inst.FPDFBookmark_GetFirstChild(req)
	if err != nil || child.Bookmark == nil {
		return nil, false
	}
	return *child.Bookmark, true
}

func (w *wasmReader) nextBookmark(bm bookmark) (bookmark, bool) {
	next, err := w.inst.FPDFBookmark_GetNextSibling(&requests.FPDFBookmark_GetNextSibling{Document: w.doc, Bookmark: bm.(references.FPDF_BOOKMARK)})
	if err != nil || next.Bookmark == nil {
		return nil, false
	}
	return *next.Bookmark, true
}

func (w *wasmReader) bookmarkTitle(bm bookmark) string {
	t, err := w.inst.FPDFBookmark_GetTitle(&requests.FPDFBookmark_GetTitle{Bookmark: bm.(references.FPDF_BOOKMARK)})
	if err != nil {
		return ""
	}
	return t.Title
}

func (w *wasmReader) bookmarkPage(b bookmark) int {
	bm := b.(references.FPDF_BOOKMARK)
	var dest references.FPDF_DEST
	if d, err := w.inst.FPDFBookmark_GetDest(&requests.FPDFBookmark_GetDest{Document: w.doc, Bookmark: bm}); err == nil && d.Dest != nil {
		dest = *d.Dest
	} else if a, err := w.inst.FPDFBookmark_GetAction(&requests.FPDFBookmark_GetAction{Bookmark: bm}); err == nil && a.Action != nil {
		if d, err := w.inst.FPDFAction_GetDest(&requests.FPDFAction_GetDest{Document: w.doc, Action: *a.Action}); err == nil && d.Dest != nil {
			dest = *d.Dest
		}
	}
	if dest == "" {
		return -1
	}
	idx, err := w.inst.FPDFDest_GetDestPageIndex(&requests.FPDFDest_GetDestPageIndex{Document: w.doc, Dest: dest})
	if err != nil {
		return -1
	}
	return idx.Index
}

func (w *wasmReader) chars(i, max int, each func(r rune, size float64, weight int, vertical bool)) error {
	tp, done, err := w.textPage(i)
	if err != nil {
		return err
	}
	defer done()
	return w.charsOf(tp, max, each)
}

// charsOf is chars on a loaded text page.
func (w *wasmReader) charsOf(tp references.FPDF_TEXTPAGE, max int, each func(r rune, size float64, weight int, vertical bool)) error {
	n, err := w.inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp})
	if err != nil {
		return err
	}
	for k := range min(n.Count, max) {
		u, err := w.inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp, Index: k})
		if err != nil {
			return err
		}
		r := rune(u.Unicode)
		if unsized(r) {
			each(r, 0, 0, false)
			continue
		}
		fs, err := w.inst.FPDFText_GetFontSize(&requests.FPDFText_GetFontSize{TextPage: tp, Index: k})
		if err != nil {
			each(r, 0, 0, false)
			continue
		}
		weight := 0
		if fw, err := w.inst.FPDFText_GetFontWeight(&requests.FPDFText_GetFontWeight{TextPage: tp, Index: k}); err == nil {
			weight = fw.FontWeight
		}
		var a, b, c, d float64
		if m, err := w.inst.FPDFText_GetMatrix(&requests.FPDFText_GetMatrix{TextPage: tp, Index: k}); err == nil {
			a, b, c, d = float64(m.Matrix.A), float64(m.Matrix.B), float64(m.Matrix.C), float64(m.Matrix.D)
		}
		size, vertical := renderedSize(fs.FontSize, a, b, c, d)
		each(r, size, weight, vertical)
	}
	return nil
}

func (w *wasmReader) charBoxes(i int) (rawChars, error) {
	page := requests.Page{ByIndex: &requests.PageByIndex{Document: w.doc, Index: i}}
	text, err := w.pageText(i)
	if err != nil {
		return rawChars{}, err
	}
	tp, done, err := w.textPage(i)
	if err != nil {
		return rawChars{}, err
	}
	defer done()
	wd, err := w.inst.FPDF_GetPageWidthF(&requests.FPDF_GetPageWidthF{Page: page})
	if err != nil {
		return rawChars{}, fmt.Errorf("page size: %w", err)
	}
	ht, err := w.inst.FPDF_GetPageHeightF(&requests.FPDF_GetPageHeightF{Page: page})
	if err != nil {
		return rawChars{}, fmt.Errorf("page size: %w", err)
	}
	width, height := float64(wd.PageWidth), float64(ht.PageHeight)
	sizeX, sizeY := int(math.Round(width*deviceScale)), int(math.Round(height*deviceScale))
	m, ok := pageTransform(func(x, y float64) (float64, float64, bool) {
		d, err := w.inst.FPDF_PageToDevice(&requests.FPDF_PageToDevice{Page: page, SizeX: sizeX, SizeY: sizeY, PageX: x, PageY: y})
		if err != nil {
			return 0, 0, false
		}
		return float64(d.DeviceX), float64(d.DeviceY), true
	})
	return charsOf(utf16.Encode([]rune(text)), width, height, func(t int) (rune, [4]float64, bool) {
		if !ok {
			return 0, [4]float64{}, false
		}
		ci, err := w.inst.FPDFText_GetCharIndexFromTextIndex(&requests.FPDFText_GetCharIndexFromTextIndex{TextPage: tp, NTextIndex: t})
		if err != nil || ci.CharIndex < 0 {
			return 0, [4]float64{}, false
		}
		b, err := w.inst.FPDFText_GetLooseCharBox(&requests.FPDFText_GetLooseCharBox{TextPage: tp, Index: ci.CharIndex})
		if err != nil {
			return 0, [4]float64{}, false
		}
		u, err := w.inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp, Index: ci.CharIndex})
		if err != nil {
			return 0, [4]float64{}, false
		}
		return rune(u.Unicode), m.box(float64(b.Rect.Left), float64(b.Rect.Top), float64(b.Rect.Right), float64(b.Rect.Bottom)), true
	}), nil
}

func (w *wasmReader) pageLayout(i int) (string, rawLayout, error) {
	tp, done, err := w.textPage(i)
	if err != nil {
		return "", rawLayout{}, err
	}
	defer done()
	text, err := w.textOf(tp)
	if err != nil {
		return "", rawLayout{}, err
	}
	var l rawLayout
	seen := 0
	err = w.charsOf(tp, maxLineChars, func(r rune, size float64, weight int, vertical bool) {
		p := charProp{size: -1}
		switch {
		case r == '\n' || r == '\r':
			seen = 0
		case !unsized(r):
			seen++
			if seen <= lineHead || len(l.runes)%bodySample == 0 {
				p = charProp{size: size, weight: weight, vertical: vertical}
			}
		}
		l.runes = append(l.runes, r)
		l.props = append(l.props, p)
	})
	return text, l, err
}

func (w *wasmReader) pageSize(i int) (float64, float64, error) {
	page := requests.Page{ByIndex: &requests.PageByIndex{Document: w.doc, Index: i}}
	wd, err := w.inst.FPDF_GetPageWidthF(&requests.FPDF_GetPageWidthF{Page: page})
	if err != nil {
		return 0, 0, fmt.Errorf("page size: %w", err)
	}
	ht, err := w.inst.FPDF_GetPageHeightF(&requests.FPDF_GetPageHeightF{Page: page})
	if err != nil {
		return 0, 0, fmt.Errorf("page size: %w", err)
	}
	return float64(wd.PageWidth), float64(ht.PageHeight), nil
}

func (w *wasmReader) render(i, startX, startY, sizeX, sizeY, width, height int) ([]byte, error) {
	page := requests.Page{ByIndex: &requests.PageByIndex{Document: w.doc, Index: i}}
	bm, err := w.inst.FPDFBitmap_Create(&requests.FPDFBitmap_Create{Width: width, Height: height, Alpha: 0})
	if err != nil {
		return nil, fmt.Errorf("create bitmap: %w", err)
	}
	defer w.inst.FPDFBitmap_Destroy(&requests.FPDFBitmap_Destroy{Bitmap: bm.Bitmap})
	if _, err := w.inst.FPDFBitmap_FillRect(&requests.FPDFBitmap_FillRect{Bitmap: bm.Bitmap, Width: width, Height: height, Color: 0xFFFFFFFF}); err != nil {
		return nil, fmt.Errorf("fill bitmap: %w", err)
	}
	if _, err := w.inst.FPDF_RenderPageBitmap(&requests.FPDF_RenderPageBitmap{Bitmap: bm.Bitmap, Page: page,
		StartX: startX, StartY: startY, SizeX: sizeX, SizeY: sizeY, Flags: enums.FPDF_RENDER_FLAG_ANNOT}); err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	stride, err := w.inst.FPDFBitmap_GetStride(&requests.FPDFBitmap_GetStride{Bitmap: bm.Bitmap})
	if err != nil {
		return nil, fmt.Errorf("bitmap stride: %w", err)
	}
	b, err := w.inst.FPDFBitmap_GetBuffer(&requests.FPDFBitmap_GetBuffer{Bitmap: bm.Bitmap})
	if err != nil {
		return nil, fmt.Errorf("bitmap buffer: %w", err)
	}
	// The buffer is the module's memory: copy it out row by row.
	out := make([]byte, width*height*4)
	for y := range height {
		row := b.Buffer[y*stride.Stride:]
		copy(out[y*width*4:(y+1)*width*4], row[:width*4])
	}
	return out, nil
}
