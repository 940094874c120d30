package mcp

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
)

// location is a ref an agent sent: a vault path, or a citation URI
// (papers/raft/paper.pdf#page=3&quote=Raft+decomposes) split into its path
// and fragment.
type location struct {
	path  string
	page  int    // #page=N, 0 when absent
	quote string // &quote=…, decoded
}

// maxPage bounds page numbers anywhere: no PDF is longer.
const maxPage = 100000

// parseLocation splits a citation URI. A fragment may hold only page and
// quote, once each; anything else is an error that does not echo the input.
func parseLocation(raw string) (location, error) {
	p, frag, ok := strings.Cut(raw, "#")
	loc := location{path: p}
	if !ok {
		return loc, nil
	}
	bad := errorf("not a citation URI: its fragment may hold only page=N and quote=…")
	if frag == "" {
		return loc, bad
	}
	seen := map[string]bool{}
	for _, kv := range strings.Split(frag, "&") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || seen[k] {
			return loc, bad
		}
		seen[k] = true
		switch k {
		case "page":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > maxPage || v != strconv.Itoa(n) {
				return loc, errorf("the page of a citation URI must be a page number")
			}
			loc.page = n
		case "quote":
			q, err := url.QueryUnescape(v)
			if err != nil || !utf8.ValidString(q) || strings.ContainsRune(q, 0) || strings.TrimSpace(q) == "" {
				return loc, bad
			}
			loc.quote = q
		default:
			return loc, bad
		}
	}
	return loc, nil
}

// What a ref names.
type targetKind int

const (
	paperTarget targetKind = iota
	fileTarget
	dirTarget
)

// target is a granted thing a ref resolved to.
type target struct {
	kind  targetKind
	ref   string // clean vault path
	src   grant.Source
	abs   string
	paper index.Paper // for papers
	loc   location
}

// resolve checks a ref against the grant and says what it names. Refusals
// are grant.ErrRefused, whatever the reason, so nothing outside the grant
// is confirmed or named.
func (s *Server) resolve(ctx context.Context, raw string) (target, error) {
	loc, err := parseLocation(raw)
	if err != nil {
		return target{}, err
	}
	ref, src, abs, err := s.grant.Resolve(loc.path)
	if err != nil {
		if errors.Is(err, grant.ErrRefused) {
			return target{}, grant.ErrRefused
		}
		return target{}, userError{err.Error()} // granted but gone: names only a granted path
	}
	t := target{ref: ref, src: src, abs: abs, loc: loc}
	st, err := os.Stat(abs)
	if err != nil {
		return target{}, grant.ErrRefused
	}
	switch {
	case st.IsDir() && src.Kind == grant.KindPaper && ref == src.Ref:
		return s.paperTarget(ctx, t, ref)
	case st.IsDir() && src.Kind == grant.KindVault:
		// The whole vault: a folder the index knows as a paper is that paper.
		if pt, err := s.paperTarget(ctx, t, ref); err == nil {
			return pt, nil
		}
		t.kind = dirTarget
	case st.IsDir():
		t.kind = dirTarget
	case !st.Mode().IsRegular():
		return target{}, grant.ErrRefused
	case strings.EqualFold(path.Ext(ref), ".pdf"):
		// Only a paper's indexed PDF is readable, through its pages.
		t, err := s.paperTarget(ctx, t, path.Dir(ref))
		if err != nil || t.paper.PDFPath != ref {
			return target{}, errorf("this PDF is not the indexed PDF of a paper: read the paper by its ref")
		}
		return t, nil
	default:
		t.kind = fileTarget
	}
	if loc.page != 0 {
		return target{}, errorf("only a paper's PDF has pages: a file's citation URI is its path")
	}
	return t, nil
}

func (s *Server) paperTarget(ctx context.Context, t target, ref string) (target, error) {
	p, err := s.db.Paper(ctx, ref)
	if errors.Is(err, index.ErrNotFound) {
		return target{}, errorf("this paper is not in the index yet: try again once indexing has finished")
	}
	if err != nil {
		return target{}, err
	}
	t.kind, t.paper = paperTarget, p
	return t, nil
}
