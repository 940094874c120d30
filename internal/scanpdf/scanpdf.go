// Package scanpdf writes PDFs made only of page images, as a scanner
// does: what tests of OCR read. Each page is one JPEG drawn over the whole
// page, with no text layer.
package scanpdf

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
)

// Page is one page: its image and its size in points.
type Page struct {
	Image         image.Image
	Width, Height float64
}

// Write returns a PDF of the pages, each image a DCT (JPEG) XObject
// stretched over its page.
func Write(pages []Page) ([]byte, error) {
	var b bytes.Buffer
	var offsets []int
	obj := func(body string, stream []byte) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s", len(offsets), body)
		if stream != nil {
			b.WriteString("\nstream\n")
			b.Write(stream)
			b.WriteString("\nendstream")
		}
		b.WriteString("\nendobj\n")
	}
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	// Objects 1 and 2 are the catalog and the page tree; page k (0-based)
	// is object 3+3k, its content 4+3k, its image 5+3k.
	kids := ""
	for k := range pages {
		kids += fmt.Sprintf("%d 0 R ", 3+3*k)
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>", nil)
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids, len(pages)), nil)
	for k, p := range pages {
		var img bytes.Buffer
		if err := jpeg.Encode(&img, p.Image, &jpeg.Options{Quality: 85}); err != nil {
			return nil, fmt.Errorf("page %d: %w", k+1, err)
		}
		space := "/DeviceRGB"
		if _, gray := p.Image.(*image.Gray); gray {
			space = "/DeviceGray"
		}
		bounds := p.Image.Bounds()
		content := fmt.Sprintf("q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q", p.Width, p.Height)
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>",
			p.Width, p.Height, 5+3*k, 4+3*k), nil)
		obj(fmt.Sprintf("<< /Length %d >>", len(content)), []byte(content))
		obj(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s /BitsPerComponent 8 /Filter /DCTDecode /Length %d >>",
			bounds.Dx(), bounds.Dy(), space, img.Len()), img.Bytes())
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes(), nil
}
