// Package export writes what leaves the app: an answer or a whole
// conversation as Markdown whose citations and sources are agentero://
// links (plus doi.org and arxiv.org links when the paper has them), each
// citation with a note of what checking it found, with a reference list;
// and the cited papers as BibTeX and CSL-JSON.
package export

import (
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/index"
)

// Source is one citation of an answer, resolved against the library.
type Source struct {
	citation.URI              // where it points: a vault file, its page and quote
	Paper        *index.Paper // nil when the file is not a library paper's PDF
}

// Library is what export knows of the vault: its root, its papers, and
// (optionally) the printed labels of their pages.
type Library struct {
	Root   string
	Papers []index.Paper
	// Labels gives the printed label of a page of a paper ("" when it has
	// none); nil: the labels the citations carry.
	Labels func(ref string, page int) string
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

// ParseSource reads a citation URI (SPEC §1). External links are not
// sources here.
func (lib Library) ParseSource(uri string) (Source, bool) {
	u, err := citation.Parse(uri)
	if err != nil || u.External() {
		return Source{}, false
	}
	return lib.source(u), true
}

func (lib Library) source(u citation.URI) Source {
	return Source{URI: u, Paper: lib.paperOf(u.Path)}
}

// Link is the agentero:// link of s, "" when s is not a library paper's.
func (lib Library) Link(s Source) string {
	if s.Paper == nil {
		return ""
	}
	return applink.For(lib.Root, s.Paper.Ref, s.URI).String()
}

// PageLabel is how s's page is named to a reader: its printed label, else
// its number; "" when s names no page.
func (lib Library) PageLabel(s Source) string {
	if s.Page > 0 && s.Label == "" && s.Paper != nil && lib.Labels != nil {
		if l := lib.Labels(s.Paper.Ref, s.Page); l != "" {
			s.Label = l
		}
	}
	return s.URI.PageLabel()
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

// Sources resolves an answer's sources, in order, once each: one per file
// and page whatever the quote, and a whole paper only when no page of it
// is a source.
func (lib Library) Sources(m conversation.Message) []Source {
	var all []Source
	pages := map[string]bool{}
	for _, uri := range m.Sources {
		if s, ok := lib.ParseSource(uri); ok {
			all = append(all, s)
			if s.Page > 0 {
				pages[s.Path] = true
			}
		}
	}
	var out []Source
	seen := map[citation.Key]bool{}
	for _, s := range all {
		if seen[s.Key()] || s.Page == 0 && pages[s.Path] {
			continue
		}
		seen[s.Key()] = true
		out = append(out, s)
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
// writes made an agentero:// link that names the paper and page, with a
// note of what checking it found; then its sources as links and a
// reference list of the papers they are from.
func (lib Library) AnswerMarkdown(answer conversation.Message) string {
	sources := lib.Sources(answer)
	var b strings.Builder
	notes := &footnotes{}
	b.WriteString(strings.TrimRight(lib.linkify(answer.Content, answer.Checks, notes), "\n"))
	b.WriteString("\n")
	notes.write(&b)
	lib.writeSources(&b, sources, "###")
	writeReferences(&b, Papers(sources), "###")
	return b.String()
}

// ConversationMarkdown is a whole conversation as Markdown: each question
// and answer with the answer's sources, then the references of all of them.
func (lib Library) ConversationMarkdown(c *conversation.Conversation, title string) string {
	var b strings.Builder
	if title == "" {
		title = "Conversation"
	}
	fmt.Fprintf(&b, "# %s\n\n", escapeLine(title))
	fmt.Fprintf(&b, "_Exported from Agentero on %s; vault %s._\n", time.Now().Format("2 January 2006"), escapeLine(lib.Root))
	var all []Source
	notes := &footnotes{}
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
			b.WriteString(strings.TrimSpace(lib.linkify(m.Content, m.Checks, notes)))
			b.WriteString("\n")
			notes.write(&b)
			lib.writeSources(&b, sources, "###")
		}
	}
	writeReferences(&b, Papers(all), "##")
	return b.String()
}

func (lib Library) writeSources(b *strings.Builder, sources []Source, h string) {
	if len(sources) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s Sources\n\n", h)
	for i, s := range sources {
		label := s.Path
		if s.Paper != nil {
			label = paperTitle(s.Paper)
		}
		if l := lib.PageLabel(s); l != "" {
			label += ", p. " + l
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
