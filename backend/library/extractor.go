package library

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
)

// Extractor is the library's PDF extractor (started on first use), for
// reading a PDF that is not in the index yet, such as one being added.
func (l *Library) Extractor() index.Extractor {
	if l.opts.Extract != nil {
		return l.opts.Extract
	}
	return l.ex
}

// ErrNoBoxes is PageChars's error for a library whose extractor cannot
// read character boxes (one a test handed it).
var ErrNoBoxes = errors.New("this library's PDF reader gives no character boxes")

// PageChars reads the text and character boxes of pages of the PDF at rel
// (vault-relative), opened through the vault's confined opener.
func (l *Library) PageChars(ctx context.Context, rel string, pages []int) ([]pdf.PageChars, error) {
	if l.ex == nil {
		return nil, ErrNoBoxes
	}
	f, err := vault.Open(l.root, rel, vault.KindPDF)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	chars, err := l.ex.Chars(ctx, f.File, pages)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	return chars, nil
}
