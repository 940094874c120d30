package intake

import (
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/text"
)

// slug names a paper's folder: the first author's family name, the year and
// the first few significant words of the title ("vaswani-2017-attention-all-you-need"),
// folded to lower-case ASCII letters and digits. Without a title the file's
// name stands in; without anything, "paper".
func slug(authors []string, year int, title, file string) string {
	var parts []string
	if len(authors) > 0 {
		if w := words(familyName(authors[0])); len(w) > 0 {
			parts = append(parts, w[len(w)-1])
		}
	}
	if year > 0 {
		parts = append(parts, strconv.Itoa(year))
	}
	tw := words(title)
	if len(tw) == 0 && file != "" {
		tw = words(strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)))
	}
	n := 0
	for _, w := range tw {
		if n == 5 {
			break
		}
		if text.Stop(w) && n > 0 {
			continue
		}
		parts = append(parts, w)
		n++
	}
	s := strings.Join(parts, "-")
	if len(s) > 80 {
		s = strings.TrimRight(s[:80], "-")
	}
	if s == "" {
		return "paper"
	}
	return s
}

// familyName is the family name of "Family, Given" or "Given Family".
func familyName(name string) string {
	if i := strings.Index(name, ","); i > 0 {
		return name[:i]
	}
	return name
}

// words are s's words folded to ASCII letters and digits.
func words(s string) []string {
	var out []string
	for _, w := range text.Words(s) {
		var b strings.Builder
		for _, r := range w {
			if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				b.WriteRune(r)
			}
		}
		if b.Len() > 0 {
			out = append(out, b.String())
		}
	}
	return out
}

// folderName makes a Zotero collection's name a folder name: no slashes,
// no leading dot (a hidden folder is not vault content), no control
// characters, at most 80 bytes.
func folderName(name string) string {
	name = strings.Map(func(r rune) rune {
		switch {
		case r == '/' || r == '\\' || r == 0:
			return '-'
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, name)
	name = strings.TrimLeft(strings.TrimSpace(name), ".")
	name = strings.TrimSpace(name)
	if len(name) > 80 {
		name = name[:80]
		for !utf8Valid(name) {
			name = name[:len(name)-1]
		}
	}
	if name == "" {
		return "collection"
	}
	return name
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
