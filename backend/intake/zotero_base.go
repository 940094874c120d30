package intake

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Linked files under Zotero's "Linked Attachment Base Directory" are stored
// in itemAttachments.path as "attachments:" and a path relative to that
// folder (Zotero.Attachments.BASE_PATH_PLACEHOLDER). The folder itself is not
// in the database: it is the preference extensions.zotero.baseAttachmentPath
// of the Zotero profile (prefs.js), and Zotero resolves the path by joining
// it to the base with the platform's slashes (resolveRelativePath).
const basePlaceholder = "attachments:"

// basePref is the preference holding the base directory in prefs.js.
const basePref = "extensions.zotero.baseAttachmentPath"

// noBase is why an attachments: path cannot be resolved.
const noBase = "its PDF is linked relative to Zotero's base directory, which was not found: give it " +
	"(Choose base directory… in the app, --base-dir on the command line; it is the Linked Attachment Base Directory " +
	"in Zotero → Settings → Advanced → Files and Folders)."

// baseDir is the base directory for linked attachments: the one given, else
// the one in the default Zotero profile's prefs.js under the home folder,
// else "".
func (z *zreader) baseDir() string {
	if !z.baseLooked {
		z.baseLooked = true
		if z.base == "" {
			z.base = profileBaseDir()
		}
	}
	return z.base
}

// resolveBase is the file an "attachments:" path names under the base
// directory, or "" and why not. The relative part may not leave the base.
func (z *zreader) resolveBase(p string) (string, string) {
	rel := strings.TrimPrefix(p, basePlaceholder)
	// Zotero stores forward slashes; older Windows clients wrote
	// backslashes, which Zotero turns into the platform's on use.
	rel = strings.ReplaceAll(rel, "\\", "/")
	if rel == "" || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return "", "its attachment path " + p + " leads outside Zotero's base directory, so it is refused."
	}
	base := z.baseDir()
	if base == "" {
		return "", noBase
	}
	return filepath.Join(base, filepath.FromSlash(rel)), ""
}

// profileBaseDir reads the base directory from the default Zotero profile
// of the user's home folder ($HOME/.zotero/zotero/profiles.ini names the
// profiles; Zotero 5 and later keep them there on Linux, the Flatpak under
// ~/.var/app/org.zotero.Zotero). It only reads.
func profileBaseDir() string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	// Zotero's own installer keeps the profiles in ~/.zotero/zotero; the
	// Flatpak (Flathub's org.zotero.Zotero) inside its sandbox's home.
	for _, profiles := range []string{
		filepath.Join(home, ".zotero", "zotero"),
		filepath.Join(home, ".var", "app", "org.zotero.Zotero", ".zotero", "zotero"),
	} {
		dir := defaultProfile(profiles)
		if dir == "" {
			continue
		}
		base, ok := readPref(filepath.Join(dir, "prefs.js"), basePref)
		if ok && filepath.IsAbs(base) {
			return filepath.Clean(base)
		}
	}
	return ""
}

// defaultProfile is the folder of the default profile in profiles.ini: the
// [Install…] section's Default= when there is one (newer Mozilla runtimes),
// else the [Profile…] marked Default=1, else the only profile.
func defaultProfile(dir string) string {
	data, err := readSmall(filepath.Join(dir, "profiles.ini"))
	if err != nil {
		return ""
	}
	type profile struct {
		path                string
		relative, isDefault bool
	}
	var list []profile
	var install string
	var cur *profile
	inInstall := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			name := line[1 : len(line)-1]
			cur, inInstall = nil, strings.HasPrefix(name, "Install")
			if strings.HasPrefix(name, "Profile") {
				list = append(list, profile{relative: true})
				cur = &list[len(list)-1]
			}
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case inInstall && k == "Default" && install == "":
			install = v
		case cur != nil && k == "Path":
			cur.path = v
		case cur != nil && k == "IsRelative":
			cur.relative = v != "0"
		case cur != nil && k == "Default":
			cur.isDefault = v == "1"
		}
	}
	at := func(p string, relative bool) string {
		if p == "" {
			return ""
		}
		if relative || !filepath.IsAbs(p) {
			return filepath.Join(dir, filepath.FromSlash(p))
		}
		return p
	}
	if install != "" {
		return at(install, false) // relative to dir unless absolute
	}
	for _, p := range list {
		if p.isDefault {
			return at(p.path, p.relative)
		}
	}
	if len(list) == 1 {
		return at(list[0].path, list[0].relative)
	}
	return ""
}

// readSmall reads a settings file of at most 16 MB, refusing anything that
// is not a regular file.
func readSmall(p string) ([]byte, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > 16<<20 {
		return nil, os.ErrInvalid
	}
	return os.ReadFile(p)
}

// readPref is the string value of user_pref(name, "…") in a prefs.js (the
// last one, as Mozilla applies them in order), with JavaScript's string
// escapes decoded.
func readPref(file, name string) (string, bool) {
	data, err := readSmall(file)
	if err != nil {
		return "", false
	}
	var val string
	found := false
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		rest, ok := strings.CutPrefix(line, "user_pref")
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, " \t")
		rest, ok = strings.CutPrefix(rest, "(")
		if !ok {
			continue
		}
		key, rest, ok := jsString(strings.TrimLeft(rest, " \t"))
		if !ok || key != name {
			continue
		}
		rest, ok = strings.CutPrefix(strings.TrimLeft(rest, " \t"), ",")
		if !ok {
			continue
		}
		v, rest, ok := jsString(strings.TrimLeft(rest, " \t"))
		if !ok || !strings.HasPrefix(strings.TrimLeft(rest, " \t"), ")") {
			continue
		}
		val, found = v, true
	}
	return val, found
}

// jsString decodes the JavaScript string literal ("…" or '…') at the start
// of s and returns it with the rest of s.
func jsString(s string) (string, string, bool) {
	if s == "" || (s[0] != '"' && s[0] != '\'') {
		return "", s, false
	}
	quote := s[0]
	var b strings.Builder
	for i := 1; i < len(s); {
		c := s[i]
		switch {
		case c == quote:
			return b.String(), s[i+1:], true
		case c != '\\':
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", s, false
		}
		e := s[i+1]
		i += 2
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case 'x':
			if i+2 > len(s) {
				return "", s, false
			}
			n, err := strconv.ParseUint(s[i:i+2], 16, 8)
			if err != nil {
				return "", s, false
			}
			b.WriteRune(rune(n))
			i += 2
		case 'u':
			var r uint64
			var err error
			if i < len(s) && s[i] == '{' {
				end := strings.IndexByte(s[i:], '}')
				if end < 0 {
					return "", s, false
				}
				r, err = strconv.ParseUint(s[i+1:i+end], 16, 32)
				i += end + 1
			} else {
				if i+4 > len(s) {
					return "", s, false
				}
				r, err = strconv.ParseUint(s[i:i+4], 16, 32)
				i += 4
				// A surrogate pair (\uD83D\uDE00) is one character.
				if err == nil && r >= 0xD800 && r < 0xDC00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					if lo, err2 := strconv.ParseUint(s[i+2:i+6], 16, 32); err2 == nil && lo >= 0xDC00 && lo < 0xE000 {
						r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
						i += 6
					}
				}
			}
			if err != nil || r > utf8.MaxRune {
				return "", s, false
			}
			b.WriteRune(rune(r))
		case '\n':
			// a line continuation adds nothing
		default:
			b.WriteByte(e) // \" \' \\ and any other character stand for themselves
		}
	}
	return "", s, false
}
