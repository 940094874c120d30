package mcp

// The reads of text files and directories, from disk, through the paths
// the grant resolved.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/quote"
	"github.com/agentero/agentero/backend/vault"
)

func (s *Server) readFile(ctx context.Context, t target, in readInput, fit fitFunc) (reply, error) {
	switch in.Mode {
	case "", modeFull, modeExcerpt, modeMetadata:
	default:
		return reply{}, errorf("a file has no pages or sections: read it without a mode, or with mode excerpt and a quote")
	}
	text, err := s.readText(ctx, t)
	if err != nil {
		return reply{}, err
	}
	r := []rune(text)
	uri := citation.New(t.ref, 0, "").String()
	res := textResult{Ref: t.src.Ref, Path: t.ref, CitationURI: uri}
	cites := []cite{{t.src.Ref, uri}}
	switch in.Mode {
	case modeMetadata:
		lines := strings.Count(text, "\n")
		if text != "" && !strings.HasSuffix(text, "\n") {
			lines++
		}
		return reply{value: map[string]any{"ref": t.src.Ref, "path": t.ref, "chars": len(r), "lines": lines, "citationUri": uri}, cites: cites}, nil
	case modeExcerpt:
		if len(quote.Fold(in.Quote)) < quote.MinQuote {
			return reply{}, errorf("mode excerpt needs quote: a few words copied from the text (%d letters or digits at least)", quote.MinQuote)
		}
		// The file is one page to the locator.
		file := quote.NewPaper([]quote.Page{{Number: 1, Text: text}})
		found := file.Search(in.Quote)
		if len(found) == 0 {
			return reply{}, errorf("the quote was not found in this file (case, spacing and hyphens ignored)")
		}
		ms, me := found[0].Spans[0].From, found[0].Spans[0].To
		for _, sp := range found[0].Spans[1:] {
			ms, me = min(ms, sp.From), max(me, sp.To)
		}
		count := len(found)
		limit, note := fit(s.grant.Budget.ExcerptChars)
		wf, wt := window(r, ms, me, limit)
		res.Text, res.Matches, res.Line = string(r[wf:wt]), count, strings.Count(string(r[:ms]), "\n")+1
		if me-ms > wt-wf {
			res.cutInfo = cutInfo{Truncated: true, Part: fmt.Sprintf("the first %d characters of the quote", wt-wf), Note: note}
		}
		return reply{value: res, cites: cites}, nil
	}
	key := cursorKey("file", t.ref)
	off, err := readCursor(in.Cursor, key)
	if err != nil {
		return reply{}, err
	}
	if off > len(r) {
		return reply{}, errorf("cursor is past the end of this file")
	}
	limit, note := fit(s.grant.Budget.FullChars)
	c := cut(r, off, limit)
	res.Text = c.text
	res.cutInfo = cutOf(c, "", fmt.Sprintf("characters %d–%d of the file", c.to+1, c.total), key, note,
		func(cur string) *nextCall { return s.readCall(map[string]any{"ref": t.ref, "cursor": cur}) })
	return reply{value: res, cites: cites}, nil
}

// readText reads a granted text file the way the index does, through the
// vault's opener: at most vault.MaxTextFileSize, not binary, and only the
// file the grant resolved (a link swapped in since is refused).
func (s *Server) readText(ctx context.Context, t target) (string, error) {
	f, err := vault.Open(s.grant.Vault, t.ref, vault.KindText)
	if err != nil {
		if errors.Is(err, vault.ErrTooLarge) {
			return "", errorf("this file is larger than %d MB: it is not read", vault.MaxTextFileSize>>20)
		}
		return "", grant.ErrRefused
	}
	defer f.Close()
	if f.Abs != t.abs {
		return "", grant.ErrRefused
	}
	data, err := f.ReadAll(ctx)
	if errors.Is(err, vault.ErrTooLarge) {
		return "", errorf("this file is larger than %d MB: it is not read", vault.MaxTextFileSize>>20)
	}
	if err != nil {
		return "", err
	}
	if vault.LooksBinary(data[:min(len(data), 8192)]) {
		return "", errorf("this is not a text file")
	}
	return strings.ToValidUTF8(string(data), "\uFFFD"), nil
}

// readDir lists the folder the grant resolved, through the vault's opener:
// a folder swapped for a link since is refused.
func (s *Server) readDir(t target) ([]fs.DirEntry, error) {
	r, err := vault.OpenRoot(s.grant.Vault)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	real, entries, err := r.ReadDir(t.ref, vault.KindText)
	if err != nil {
		return nil, err
	}
	if r.Abs(real) != t.abs {
		return nil, grant.ErrRefused
	}
	return entries, nil
}

type listResult struct {
	Path    string   `json:"path"`
	Entries []string `json:"entries"` // names; folders end in "/"
	Total   int      `json:"total"`
	cutInfo
}

// list names one level of a directory: sub-folders, and the files this
// turn may read. Hidden names and links that leave the grant are left out.
func (s *Server) list(t target, cursor string, limit, room int) (reply, error) {
	key := cursorKey("list", t.ref)
	off, err := readCursor(cursor, key)
	if err != nil {
		return reply{}, err
	}
	entries, err := s.readDir(t)
	if err != nil {
		return reply{}, grant.ErrRefused
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		child := path.Join(t.ref, name)
		if strings.HasPrefix(name, ".") {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			_, _, abs, err := s.grant.Resolve(child)
			if err != nil {
				continue
			}
			st, err := os.Stat(abs)
			if err != nil {
				continue
			}
			isDir = st.IsDir()
		}
		switch {
		case isDir:
			names = append(names, name+"/")
		case e.Type().IsRegular() || e.Type()&os.ModeSymlink != 0:
			if _, err := s.grant.Covering(child); err == nil {
				names = append(names, name)
			}
		}
	}
	if off > len(names) {
		return reply{}, errorf("cursor is past the end of this directory")
	}
	end, used := off, 0
	for end < len(names) && end-off < limit && used+runeCount(names[end])+3 <= room {
		used += runeCount(names[end]) + 3
		end++
	}
	if end == off && off < len(names) {
		return reply{}, errNoRoom
	}
	res := listResult{Path: t.ref, Entries: names[off:end], Total: len(names)}
	if res.Entries == nil {
		res.Entries = []string{}
	}
	if off > 0 || end < len(names) {
		res.cutInfo = cutInfo{Truncated: true, Part: fmt.Sprintf("entries %d–%d of %d", off+1, end, len(names))}
		if end < len(names) {
			res.NextCursor = makeCursor(key, end)
			res.Remaining = fmt.Sprintf("entries %d–%d of %d", end+1, len(names), len(names))
			res.Next = s.readCall(map[string]any{"ref": t.ref, "cursor": res.NextCursor})
		}
	}
	return reply{value: res}, nil
}
