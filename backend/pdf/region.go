package pdf

import (
	"context"
	"fmt"
	"math"
	"os"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/requests"
)

// Rect is a rectangle on a page in PDF points, measured from the top-left
// corner of the page as it is displayed (after its /Rotate), as a viewer's
// selection is.
type Rect struct {
	X, Y, Width, Height float64
}

// regionRequest asks a worker for the text inside a rectangle of one page.
type regionRequest struct {
	Page int // 1-based
	Rect Rect
}

// Region returns the text inside r on page (1-based) of the PDF at path,
// under the same per-file time limit and isolation as Extract.
func (e *Extractor) Region(ctx context.Context, path string, page int, r Rect) (string, error) {
	f, err := openFile(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return e.RegionFile(ctx, f, page, r)
}

// RegionFile is Region on an open PDF, which the worker reads itself (see
// ExtractFile).
func (e *Extractor) RegionFile(ctx context.Context, f *os.File, page int, r Rect) (string, error) {
	if page < 1 {
		return "", fmt.Errorf("page %d: pages start at 1", page)
	}
	doc, err := e.run(ctx, f, request{Region: &regionRequest{Page: page, Rect: r}})
	if err != nil {
		return "", err
	}
	if doc == nil || len(doc.Pages) != 1 {
		return "", fmt.Errorf("region: no page came back: %w", ErrDamaged)
	}
	return doc.Pages[0].Text, nil
}

// regionScale is the device pixels per point used to map the displayed
// rectangle onto page space (FPDF_DeviceToPage takes whole pixels).
const regionScale = 8

// regionText reads the text inside a displayed rectangle of one page. The
// answer travels as a one-page Document.
func regionText(pool pdfium.Pool, f *os.File, req regionRequest) (_ *Document, err error) {
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open pdf: %w", err)
	}
	inst, err := pool.GetInstanceWithContext(context.Background())
	if err != nil {
		return nil, fmt.Errorf("get pdfium instance: %w", err)
	}
	defer func() { releaseInstance(inst, err, nil) }()
	opened, err := inst.OpenDocument(&requests.OpenDocument{FileReader: f, FileReaderSize: st.Size()})
	if err != nil {
		return nil, openError(err)
	}
	defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: opened.Document})
	count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: opened.Document})
	if err != nil {
		return nil, fmt.Errorf("count pages: %w: %w", ErrDamaged, err)
	}
	if req.Page > count.PageCount {
		return nil, fmt.Errorf("page %d is past the last page (%d)", req.Page, count.PageCount)
	}
	page := requests.Page{ByIndex: &requests.PageByIndex{Document: opened.Document, Index: req.Page - 1}}
	w, err := inst.FPDF_GetPageWidthF(&requests.FPDF_GetPageWidthF{Page: page})
	if err != nil {
		return nil, fmt.Errorf("page size: %w", err)
	}
	h, err := inst.FPDF_GetPageHeightF(&requests.FPDF_GetPageHeightF{Page: page})
	if err != nil {
		return nil, fmt.Errorf("page size: %w", err)
	}
	toPage := func(x, y float64) (float64, float64, error) {
		p, err := inst.FPDF_DeviceToPage(&requests.FPDF_DeviceToPage{
			Page: page, SizeX: int(math.Round(float64(w.PageWidth) * regionScale)), SizeY: int(math.Round(float64(h.PageHeight) * regionScale)),
			Rotate: enums.FPDF_PAGE_ROTATION_NONE, DeviceX: int(math.Round(x * regionScale)), DeviceY: int(math.Round(y * regionScale)),
		})
		if err != nil {
			return 0, 0, err
		}
		return p.PageX, p.PageY, nil
	}
	x0, y0, err := toPage(req.Rect.X, req.Rect.Y)
	if err != nil {
		return nil, fmt.Errorf("map region: %w", err)
	}
	x1, y1, err := toPage(req.Rect.X+req.Rect.Width, req.Rect.Y+req.Rect.Height)
	if err != nil {
		return nil, fmt.Errorf("map region: %w", err)
	}
	tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: page})
	if err != nil {
		return nil, fmt.Errorf("load text page: %w", err)
	}
	defer inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
	text, err := inst.FPDFText_GetBoundedText(&requests.FPDFText_GetBoundedText{TextPage: tp.TextPage,
		Left: math.Min(x0, x1), Right: math.Max(x0, x1), Top: math.Max(y0, y1), Bottom: math.Min(y0, y1)})
	if err != nil {
		return nil, fmt.Errorf("bounded text: %w", err)
	}
	return &Document{Pages: []Page{{Number: req.Page, Text: Normalize(text.Text)}}}, nil
}
