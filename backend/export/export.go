// Package export writes what leaves the app: an answer or a whole
// conversation as Markdown whose sources are agentero:// links (plus
// doi.org and arxiv.org links when the paper has them) with a reference
// list, and the cited papers as BibTeX and CSL-JSON.
package export

import (
	"fmt"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/index"
)

// Source is one citation of an answer, resolved against the library.
type Source struct {
	URI   string       // the citation as the answer has it: papers/x/paper.pdf#page=3&quote=…
	File  string       // its vault-relative file
	Page  int          // 1-based; 0 when it names none
	Quote string       // "" when none
	Paper *index.Paper // nil when the file is not a library paper's PDF
}

// Library is what export knows of the vault: its root and its papers.
type Library struct {
	Root   string
	Papers []index.Paper
}

// paperOf finds the paper whose PDF, or whose folder, holds file.
func (lib Library) paperOf(file string) *index.Paper {
	for i := range lib.Papers {
		p := &lib.Papers[i]
		if p.PDFPath == file {
			return p
		}
	}
	for i := range lib.Papers {
		p := &lib.Papers[i]
		if strings.HasPrefix(file, p.Ref+"/") {
			return p
		}
	}
	return nil
}

// ParseSource reads a citation URI (SPEC §1): a vault-relative file with an
// optional #page=N&quote=… fragment. External links are not sources here.
func (lib Library) ParseSource(uri string) (Source, bool) {
	file, frag, _ := strings.Cut(uri, "#")
	if file == "" || strings.Contains(file, "://") || strings.HasPrefix(file, "/") {
		return Source{}, false
	}
	if f, err := url.PathUnescape(file); err == nil {
		file = f
	}
	s := Source{URI: uri, File: path.Clean(file)}
	if q, err := url.ParseQuery(frag); err == nil {
		if n, err := strconv.Atoi(q.Get("page")); err == nil && n > 0 {
			s.Page = n
		}
		s.Quote = strings.TrimSpace(q.Get("quote"))
	}
	s.Paper = lib.paperOf(s.File)
	return s, true
}

// Link is the agentero:// link of s, "" when s is not a library paper's.
func (lib Library) Link(s Source) string {
	if s.Paper == nil {
		return ""
	}
	page := s.Page
	if page == 0 {
		page = 1
	}
	q := []rune(s.Quote)
	if len(q) > applink.MaxQuote {
		q = q[:applink.MaxQuote]
	}
	return applink.Link{Vault: lib.Root, Ref: s.Paper.Ref, Page: page, Quote: string(q)}.String()
}

// DOILink and ArxivLink are a paper's public pages, "" when unknown.
func DOILink(p *index.Paper) string {
	if p == nil || p.DOI == "" {
		return ""
	}
	return "https://doi.org/" + (&url.URL{Path: p.DOI}).EscapedPath()
}

func ArxivLink(p *index.Paper) string {
	if p == nil || p.ArxivID == "" {
		return ""
	}
	return "https://arxiv.org/abs/" + (&url.URL{Path: p.ArxivID}).EscapedPath()
}

// Sources resolves an answer's sources, in order, without repeats.
func (lib Library) Sources(m acp.Message) []Source {
	var out []Source
	seen := map[string]bool{}
	for _, uri := range m.Sources {
		if seen[uri] {
			continue
		}
		seen[uri] = true
		if s, ok := lib.ParseSource(uri); ok {
			out = append(out, s)
		}
	}
	return out
}

// Papers lists the distinct library papers sources cite, in first-cited order.
func Papers(sources []Source) []*index.Paper {
	var out []*index.Paper
	seen := map[string]bool{}
	for _, s := range sources {
		if s.Paper != nil && !seen[s.Paper.Ref] {
			seen[s.Paper.Ref] = true
			out = append(out, s.Paper)
		}
	}
	return out
}

// AnswerMarkdown is an answer as Markdown: its text with each citation it
// writes pointing to the agentero:// link, then its sources as links and a
// reference list of the papers they are from.
func (lib Library) AnswerMarkdown(answer acp.Message) string {
	sources := lib.Sources(answer)
	var b strings.Builder
	b.WriteString(lib.linkify(answer.Content, sources))
	b.WriteString("\n")
	lib.writeSources(&b, sources, "###")
	writeReferences(&b, Papers(sources), "###")
	return b.String()
}

// ConversationMarkdown is a whole conversation as Markdown: each question
// and answer with the answer's sources, then the references of all of them.
func (lib Library) ConversationMarkdown(c *acp.Conversation, title string) string {
	var b strings.Builder
	if title == "" {
		title = "Conversation"
	}
	fmt.Fprintf(&b, "# %s\n\n", escapeLine(title))
	fmt.Fprintf(&b, "_Exported from Agentero on %s; vault %s._\n", time.Now().Format("2 January 2006"), escapeLine(lib.Root))
	var all []Source
	for _, m := range c.Messages {
		switch m.Role {
		case "user":
			fmt.Fprintf(&b, "\n## Question\n\n%s\n", strings.TrimSpace(m.Content))
		default:
			who := "Answer"
			if m.Agent != "" {
				who = "Answer (" + escapeLine(m.Agent) + ")"
			}
			fmt.Fprintf(&b, "\n## %s\n\n", who)
			if m.Error != "" {
				fmt.Fprintf(&b, "> The turn failed: %s\n", escapeLine(m.Error))
			}
			sources := lib.Sources(m)
			all = append(all, sources...)
			b.WriteString(lib.linkify(strings.TrimSpace(m.Content), sources))
			b.WriteString("\n")
			lib.writeSources(&b, sources, "###")
		}
	}
	writeReferences(&b, Papers(all), "##")
	return b.String()
}

// linkify points each citation URI the text writes (as a Markdown link
// target or bare) to its agentero:// link.
func (lib Library) linkify(text string, sources []Source) string {
	// Longest first, so that one URI that begins another is not cut.
	sorted := append([]Source(nil), sources...)
	sort.Slice(sorted, func(i, j int) bool { return len(sorted[i].URI) > len(sorted[j].URI) })
	var pairs []string
	for _, s := range sorted {
		if link := lib.Link(s); link != "" {
			pairs = append(pairs, "("+s.URI+")", "("+link+")", "<"+s.URI+">", "<"+link+">")
		}
	}
	if len(pairs) == 0 {
		return text
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

func (lib Library) writeSources(b *strings.Builder, sources []Source, h string) {
	if len(sources) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s Sources\n\n", h)
	for i, s := range sources {
		label := s.File
		if s.Paper != nil {
			label = paperTitle(s.Paper)
		}
		if s.Page > 0 {
			label += fmt.Sprintf(", p. %d", s.Page)
		}
		line := escapeLink(label)
		if link := lib.Link(s); link != "" {
			line = "[" + line + "](<" + link + ">)"
		}
		fmt.Fprintf(b, "%d. %s", i+1, line)
		if s.Quote != "" {
			fmt.Fprintf(b, " — “%s”", escapeLine(s.Quote))
		}
		if d := DOILink(s.Paper); d != "" {
			fmt.Fprintf(b, " · [doi:%s](%s)", escapeLink(s.Paper.DOI), d)
		}
		if a := ArxivLink(s.Paper); a != "" {
			fmt.Fprintf(b, " · [arXiv:%s](%s)", escapeLink(s.Paper.ArxivID), a)
		}
		b.WriteString("\n")
	}
}

func writeReferences(b *strings.Builder, papers []*index.Paper, h string) {
	if len(papers) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s References\n\n", h)
	for _, p := range papers {
		var parts []string
		if len(p.Authors) > 0 {
			parts = append(parts, escapeLine(strings.Join(p.Authors, ", ")))
		}
		if p.Year > 0 {
			parts = append(parts, fmt.Sprintf("(%d)", p.Year))
		}
		parts = append(parts, "*"+escapeLine(paperTitle(p))+"*.")
		if d := DOILink(p); d != "" {
			parts = append(parts, d)
		} else if a := ArxivLink(p); a != "" {
			parts = append(parts, a)
		}
		fmt.Fprintf(b, "- %s\n", strings.Join(parts, " "))
	}
}

func paperTitle(p *index.Paper) string {
	if strings.TrimSpace(p.Title) != "" {
		return strings.TrimSpace(p.Title)
	}
	return path.Base(p.Ref)
}

// escapeLine keeps text on one line and stops it from being read as markup.
func escapeLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`).Replace(s)
}

// escapeLink is escapeLine for a link's text.
func escapeLink(s string) string { return escapeLine(s) }
