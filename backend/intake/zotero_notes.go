package intake

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// NotesFile is the paper folder's notes file (SPEC §1: NOTES.md, text the
// user wrote or converted) that an import fills with the source's notes
// (Zotero's child notes) when the paper has none yet.
const NotesFile = "NOTES.md"

// zoteroNotes is the Markdown of an item's child notes, oldest first,
// each converted from Zotero's HTML; "" when it has none.
func zoteroNotes(notes []string) string {
	var parts []string
	for _, n := range notes {
		if t := noteText(n); t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "# Notes from Zotero\n\n" + strings.Join(parts, "\n\n---\n\n") + "\n"
}

// noteText turns a Zotero note (HTML: paragraphs, headings, lists,
// emphasis, links) into Markdown text: headings as #, list items as "- ",
// paragraphs apart, everything else as its text.
func noteText(note string) string {
	doc, err := html.Parse(strings.NewReader(note))
	if err != nil {
		return strings.TrimSpace(note)
	}
	var b strings.Builder
	var walk func(n *html.Node)
	block := func() {
		s := b.String()
		if s != "" && !strings.HasSuffix(s, "\n\n") {
			b.WriteString(strings.Repeat("\n", 2-min(2, len(s)-len(strings.TrimRight(s, "\n")))))
		}
	}
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			t := strings.Join(strings.Fields(n.Data), " ")
			if t == "" {
				if strings.TrimSpace(n.Data) == "" && n.Data != "" && !strings.HasSuffix(b.String(), " ") && !strings.HasSuffix(b.String(), "\n") && b.Len() > 0 {
					b.WriteByte(' ')
				}
				return
			}
			if n.Data[0] == ' ' || n.Data[0] == '\n' {
				if s := b.String(); s != "" && !strings.HasSuffix(s, " ") && !strings.HasSuffix(s, "\n") {
					b.WriteByte(' ')
				}
			}
			b.WriteString(t)
			if last := n.Data[len(n.Data)-1]; last == ' ' || last == '\n' {
				b.WriteByte(' ')
			}
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script, atom.Style:
				return
			case atom.Br:
				b.WriteByte('\n')
				return
			case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				block()
				b.WriteString(strings.Repeat("#", int(n.Data[1]-'0')+1) + " ")
			case atom.Li:
				if s := b.String(); s != "" && !strings.HasSuffix(s, "\n") {
					b.WriteByte('\n')
				}
				b.WriteString("- ")
			case atom.P, atom.Div, atom.Blockquote, atom.Pre, atom.Ul, atom.Ol, atom.Table, atom.Tr:
				block()
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.P, atom.Div, atom.Blockquote, atom.Pre, atom.Ul, atom.Ol, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Table:
				block()
			}
		}
	}
	walk(doc)
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// writeNotes writes the source's notes to the paper folder dir's
// NOTES.md when it has none: a notes file there is the user's (or an
// earlier import's the user may have edited), never overwritten. It
// reports whether it wrote.
func writeNotes(dir, notes string) (bool, error) {
	if notes == "" {
		return false, nil
	}
	f, err := os.OpenFile(filepath.Join(dir, NotesFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := f.WriteString(notes); err != nil {
		f.Close()
		return false, err
	}
	return true, f.Close()
}
