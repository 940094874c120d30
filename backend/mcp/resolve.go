package mcp

import (
	"context"
	"errors"
	"os"
	"path"
	"strings"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
)

// maxPage bounds page numbers anywhere: no PDF is longer.
const maxPage = citation.MaxPage

// parseRef reads a ref an agent sent: a citation URI
// (papers/raft/paper.pdf#page=3&quote=Raft+decomposes), or a vault path.
// A ref without a fragment that is not a citation URI (it holds "..", ends
// in "/", names a hidden file…) is a path for the grant to judge, so that
// every path is refused the same way; with a fragment, a wrong path is
// refused as the grant refuses, and a wrong fragment is an error that
// says what is wrong without echoing it.
func parseRef(raw string) (citation.URI, error) {
	u, err := citation.Parse(raw)
	switch {
	case err == nil && u.External():
		return citation.URI{}, grant.ErrRefused // a link is no path of the vault
	case err == nil:
		return u, nil
	}
	file, _, cited := strings.Cut(raw, "#")
	if !cited {
		return citation.URI{Path: raw}, nil
	}
	if _, err := citation.Parse(file); err != nil {
		return citation.URI{}, grant.ErrRefused
	}
	return citation.URI{}, userError{err.Error()}
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
	paper index.Paper  // for papers
	loc   citation.URI // the ref as read: its page and quote say what to read
}

// resolve checks a ref against the grant and says what it names. Refusals
// are grant.ErrRefused, whatever the reason, so nothing outside the grant
// is confirmed or named.
func (s *Server) resolve(ctx context.Context, raw string) (target, error) {
	loc, err := parseRef(raw)
	if err != nil {
		return target{}, err
	}
	ref, src, abs, err := s.grant.Resolve(loc.Path)
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
	if loc.Page != 0 {
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
