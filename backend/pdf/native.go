//go:build linux || darwin

package pdf

/*
#cgo LDFLAGS: -ldl -lm
#include <stdlib.h>
#include "native.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"unicode/utf16"
	"unsafe"
)

// A native libpdfium reads PDFs about three times as fast as PDFium
// compiled to WebAssembly (measured on the shared corpus with two processes:
// 675–727 pages/s against 220, and pdftotext's 371–387). It is the same
// PDFium, so the text, reading order and markers are the same. The worker
// loads it with dlopen when the parent names one (Options.PDFium), and
// reads with WebAssembly when there is none or it cannot be loaded; regions
// are always read with WebAssembly. native.c holds the calls.

// nativeLib is the loaded library, once per worker process.
var nativeLib struct {
	once sync.Once
	err  error
}

// loadNative loads the libpdfium at path and initialises it.
func loadNative(path string) error {
	nativeLib.once.Do(func() {
		cpath := C.CString(path)
		defer C.free(unsafe.Pointer(cpath))
		if msg := C.agentero_pdfium_load(cpath); msg != nil {
			nativeLib.err = fmt.Errorf("load %s: %s", path, C.GoString(msg))
		}
	})
	return nativeLib.err
}

// nativeReader is a pdfReader over the native libpdfium.
type nativeReader struct {
	doc unsafe.Pointer
	// kept is the text page last read, left open until another is: a
	// page whose text holds a caption is read again for its character
	// boxes (readPages), which then costs no second loading.
	kept keptPage
}

// keptPage is an open page and its text page (tp nil: none).
type keptPage struct {
	i        int
	page, tp unsafe.Pointer
}

// release closes the kept text page, if any.
func (n *nativeReader) release() {
	if n.kept.tp != nil {
		C.agentero_close_text_page(n.kept.page, n.kept.tp)
		n.kept = keptPage{}
	}
}

// openPage returns page i and its text page, the kept ones when they are
// i's; done keeps them in place of the ones kept before.
func (n *nativeReader) openPage(i int) (page, tp unsafe.Pointer, done func(), err error) {
	if n.kept.tp != nil && n.kept.i == i {
		return n.kept.page, n.kept.tp, func() {}, nil
	}
	tp = C.agentero_text_page(n.doc, C.int(i), &page)
	if tp == nil {
		return nil, nil, nil, errNoTextPage
	}
	return page, tp, func() {
		n.release()
		n.kept = keptPage{i: i, page: page, tp: tp}
	}, nil
}

// PDFium's FPDF_GetLastError codes for a document that needs a password or
// uses an unknown security handler.
const (
	fpdfErrPassword = 4
	fpdfErrSecurity = 5
)

// openNative opens the PDF at path; errors are classified as openError does.
func openNative(path string) (*nativeReader, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var code C.ulong
	doc := C.agentero_open(cpath, &code)
	if doc == nil {
		switch code {
		case fpdfErrPassword, fpdfErrSecurity:
			return nil, fmt.Errorf("open pdf: %w", ErrEncrypted)
		default:
			return nil, fmt.Errorf("open pdf: %w: pdfium error %d", ErrDamaged, int(code))
		}
	}
	return &nativeReader{doc: doc}, nil
}

func (n *nativeReader) close() {
	n.release()
	C.agentero_close(n.doc)
}

func (n *nativeReader) pageCount() (int, error) {
	return int(C.agentero_page_count(n.doc)), nil
}

// utf16String reads a PDFium string: fill writes UTF-16LE code units with a
// terminator into a buffer of the given byte length and returns the length
// it needs.
func utf16String(fill func(buf unsafe.Pointer, size C.ulong) C.ulong) string {
	need := fill(nil, 0)
	if need <= 2 {
		return ""
	}
	buf := make([]uint16, (need+1)/2)
	fill(unsafe.Pointer(&buf[0]), C.ulong(len(buf)*2))
	if i := len(buf) - 1; buf[i] == 0 {
		buf = buf[:i]
	}
	return string(utf16.Decode(buf))
}

func (n *nativeReader) pageLabel(i int) string {
	return strings.TrimSpace(utf16String(func(buf unsafe.Pointer, size C.ulong) C.ulong {
		return C.agentero_page_label(n.doc, C.int(i), buf, size)
	}))
}

func (n *nativeReader) metaText(tag string) string {
	ctag := C.CString(tag)
	defer C.free(unsafe.Pointer(ctag))
	return utf16String(func(buf unsafe.Pointer, size C.ulong) C.ulong {
		return C.agentero_meta_text(n.doc, ctag, buf, size)
	})
}

var errNoTextPage = errors.New("the page or its text could not be loaded")

// textPage loads page i's text page; call done when finished with it.
func (n *nativeReader) textPage(i int) (tp unsafe.Pointer, done func(), err error) {
	_, tp, done, err = n.openPage(i)
	return tp, done, err
}

func (n *nativeReader) pageText(i int) (string, error) {
	tp, done, err := n.textPage(i)
	if err != nil {
		return "", err
	}
	defer done()
	return string(utf16.Decode(textUnits(tp))), nil
}

// textUnits is a text page's text as FPDFText_GetText gives it: UTF-16
// code units, one per text index.
func textUnits(tp unsafe.Pointer) []uint16 {
	count := int(C.agentero_count_chars(tp))
	if count <= 0 {
		return nil
	}
	buf := make([]uint16, count+1)
	got := int(C.agentero_get_text(tp, C.int(count), (*C.ushort)(unsafe.Pointer(&buf[0]))))
	if got <= 0 {
		return nil
	}
	if got > len(buf) {
		got = len(buf)
	}
	if buf[got-1] == 0 {
		got--
	}
	return buf[:got]
}

func (n *nativeReader) firstBookmark(parent bookmark) (bookmark, bool) {
	var p unsafe.Pointer
	if parent != nil {
		p = parent.(unsafe.Pointer)
	}
	child := C.agentero_first_child(n.doc, p)
	return child, child != nil
}

func (n *nativeReader) nextBookmark(bm bookmark) (bookmark, bool) {
	next := C.agentero_next_sibling(n.doc, bm.(unsafe.Pointer))
	return next, next != nil
}

func (n *nativeReader) bookmarkTitle(bm bookmark) string {
	return utf16String(func(buf unsafe.Pointer, size C.ulong) C.ulong {
		return C.agentero_bookmark_title(bm.(unsafe.Pointer), buf, size)
	})
}

func (n *nativeReader) bookmarkPage(bm bookmark) int {
	return int(C.agentero_bookmark_page(n.doc, bm.(unsafe.Pointer)))
}

func (n *nativeReader) chars(i, max int, each func(r rune, size float64, weight int, vertical bool)) error {
	tp, done, err := n.textPage(i)
	if err != nil {
		return err
	}
	defer done()
	count := min(int(C.agentero_count_chars(tp)), max)
	if count <= 0 {
		return nil
	}
	// One call for the whole page: a call into C per character costs more
	// than PDFium's answer.
	unicode := make([]C.uint, count)
	sizes := make([]C.double, count)
	weights := make([]C.int, count)
	vertical := make([]C.uchar, count)
	count = int(C.agentero_char_props(tp, C.int(count), &unicode[0], &sizes[0], &weights[0], &vertical[0]))
	for k := range count {
		size := math.Round(float64(sizes[k])*10) / 10
		each(rune(unicode[k]), size, int(weights[k]), vertical[k] != 0)
	}
	return nil
}

func (n *nativeReader) charBoxes(i int) (rawChars, error) {
	page, tp, done, err := n.openPage(i)
	if err != nil {
		return rawChars{}, err
	}
	defer done()
	var w, h C.float
	C.agentero_page_size(page, &w, &h)
	sizeX, sizeY := C.int(math.Round(float64(w)*deviceScale)), C.int(math.Round(float64(h)*deviceScale))
	m, ok := pageTransform(func(x, y float64) (float64, float64, bool) {
		var dx, dy C.int
		if C.agentero_page_to_device(page, sizeX, sizeY, C.double(x), C.double(y), &dx, &dy) == 0 {
			return 0, 0, false
		}
		return float64(dx), float64(dy), true
	})
	count := int(C.agentero_count_chars(tp))
	return charsOf(textUnits(tp), float64(w), float64(h), func(t int) (rune, [4]float64, bool) {
		ci := int(C.agentero_char_index(tp, C.int(t)))
		if !ok || ci < 0 || ci >= count {
			return 0, [4]float64{}, false
		}
		var r C.agentero_rectf
		if C.agentero_loose_box(tp, C.int(ci), &r) == 0 {
			return 0, [4]float64{}, false
		}
		return rune(C.agentero_unicode(tp, C.int(ci))), m.box(float64(r.left), float64(r.top), float64(r.right), float64(r.bottom)), true
	}), nil
}

func (n *nativeReader) pageLayout(i int) (string, rawLayout, error) {
	tp, done, err := n.textPage(i)
	if err != nil {
		return "", rawLayout{}, err
	}
	defer done()
	text := string(utf16.Decode(textUnits(tp)))
	count := min(int(C.agentero_count_chars(tp)), maxLineChars)
	if count <= 0 {
		return text, rawLayout{}, nil
	}
	unicode := make([]C.uint, count)
	sizes := make([]C.double, count)
	weights := make([]C.int, count)
	vertical := make([]C.uchar, count)
	count = int(C.agentero_layout(tp, C.int(count), lineHead, bodySample, &unicode[0], &sizes[0], &weights[0], &vertical[0]))
	l := rawLayout{runes: make([]rune, count), props: make([]charProp, count)}
	for k := range count {
		l.runes[k] = rune(unicode[k])
		if sizes[k] < 0 {
			l.props[k].size = -1
			continue
		}
		l.props[k] = charProp{size: math.Round(float64(sizes[k])*10) / 10, weight: int(weights[k]), vertical: vertical[k] != 0}
	}
	return text, l, nil
}

func (n *nativeReader) pageSize(i int) (float64, float64, error) {
	var w, h C.float
	if C.agentero_page_size_at(n.doc, C.int(i), &w, &h) == 0 {
		return 0, 0, errNoTextPage
	}
	return float64(w), float64(h), nil
}

// fpdfAnnot is FPDF_ANNOT: draw the annotations a reader sees.
const fpdfAnnot = 0x01

func (n *nativeReader) render(i, startX, startY, sizeX, sizeY, width, height int) ([]byte, error) {
	buf := make([]byte, width*height*4)
	if C.agentero_render(n.doc, C.int(i), C.int(startX), C.int(startY), C.int(sizeX), C.int(sizeY),
		C.int(width), C.int(height), fpdfAnnot, unsafe.Pointer(&buf[0]), C.int(width*4)) == 0 {
		return nil, errors.New("the page could not be drawn")
	}
	return buf, nil
}
