// Package applink reads and writes agentero:// links, which open a paper of a
// vault at a page with a passage highlighted (or a figure of the page
// outlined), from outside the app (a browser, an exported answer, another
// program):
//
//	agentero://open?vault=/home/me/papers&ref=papers/raft&page=7&quote=Raft%20decomposes
//	agentero://open?vault=/home/me/papers&ref=papers/raft&page=2&region=69,36.6,243.8,196.7
//
// Parse is strict: anything it does not know is refused with a sentence
// that says why, since a link may come from anyone.
package applink

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/vault"
)

// Scheme is the URL scheme the desktop entry registers.
const Scheme = "agentero"

// MaxQuote is the longest quote a link may carry, in characters (a
// citation's cap, SPEC §11).
const MaxQuote = 1200

// MaxPage is the highest page number a link may name.
const MaxPage = 100000

// MaxLength is the longest link read at all.
const MaxLength = 16 << 10

// Link is a parsed agentero://open link.
type Link struct {
	Vault string `json:"vault"` // absolute, clean path of the vault folder
	Ref   string `json:"ref"`   // vault-relative paper folder under papers/
	Page  int    `json:"page"`  // 1-based; 1 when the link names none
	Quote string `json:"quote"` // "" when none
	// Region is a figure or table of the page to outline (citation.Region,
	// written x,y,width,height); zero when none.
	Region citation.Region `json:"region,omitzero"`
}

// ErrInvalid is wrapped by every error Parse returns.
var ErrInvalid = errors.New("not a valid agentero:// link")

func invalid(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
}

// IsLink reports whether arg looks like an agentero: link (so that a
// command line hands it to Parse rather than reading it as a file).
func IsLink(arg string) bool {
	return len(arg) > len(Scheme) && strings.EqualFold(arg[:len(Scheme)+1], Scheme+":")
}

// Parse reads an agentero://open link. It checks the form only; Check
// looks at the vault on disk.
func Parse(raw string) (Link, error) {
	if len(raw) > MaxLength {
		return Link{}, invalid("the link is %d bytes long; at most %d are read", len(raw), MaxLength)
	}
	if !utf8.ValidString(raw) || strings.ContainsAny(raw, "\x00\r\n\t ") {
		return Link{}, invalid("the link contains spaces, control characters or invalid text")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return Link{}, invalid("it cannot be read as a URL")
	}
	if u.Scheme != Scheme {
		return Link{}, invalid("it must start with agentero://, not %q", u.Scheme+":")
	}
	if u.Opaque != "" || u.User != nil || u.Host != "open" || (u.Path != "" && u.Path != "/") || u.Fragment != "" || u.RawFragment != "" {
		return Link{}, invalid("the only link Agentero opens is agentero://open?vault=…&ref=…")
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return Link{}, invalid("its query cannot be read (%v)", err)
	}
	for k, v := range q {
		switch k {
		case "vault", "ref", "page", "quote", "region":
		default:
			return Link{}, invalid("it has a parameter Agentero does not know: %q", k)
		}
		if len(v) != 1 {
			return Link{}, invalid("%q is given %d times", k, len(v))
		}
	}
	var l Link
	l.Vault = q.Get("vault")
	if l.Vault == "" {
		return Link{}, invalid("it names no vault")
	}
	if !filepath.IsAbs(l.Vault) || strings.ContainsAny(l.Vault, "\\") || filepath.Clean(l.Vault) != l.Vault || hasDotDot(l.Vault) {
		return Link{}, invalid("the vault must be an absolute, plain folder path, not %q", l.Vault)
	}
	l.Ref = q.Get("ref")
	if l.Ref == "" {
		return Link{}, invalid("it names no paper (ref=papers/…)")
	}
	if !vault.ValidRel(l.Ref) || !strings.HasPrefix(l.Ref, vault.PapersDir+"/") || path.Clean(l.Ref) != l.Ref {
		return Link{}, invalid("the paper must be a folder under papers/ inside the vault, not %q", l.Ref)
	}
	l.Page = 1
	if p, ok := q["page"]; ok {
		n, err := strconv.Atoi(p[0])
		if err != nil || p[0] != strconv.Itoa(n) || n < 1 {
			return Link{}, invalid("the page must be a whole number from 1, not %q", p[0])
		}
		if n > MaxPage {
			return Link{}, invalid("page %d is past any paper's end", n)
		}
		l.Page = n
	}
	if r, ok := q["region"]; ok {
		region, on, err := citation.ParseRegion(r[0])
		if err != nil {
			return Link{}, invalid("its region must be four numbers x,y,width,height (points from the page's top-left), not %q", r[0])
		}
		if on {
			l.Region = region // one that can lie on no page is dropped: the page still opens
		}
	}
	l.Quote = strings.TrimSpace(q.Get("quote"))
	if n := utf8.RuneCountInString(l.Quote); n > MaxQuote {
		return Link{}, invalid("its quote is %d characters long; a link carries at most %d", n, MaxQuote)
	}
	for _, r := range l.Quote {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
			return Link{}, invalid("its quote contains control characters")
		}
	}
	return l, nil
}

func hasDotDot(p string) bool {
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if part == ".." || part == "." {
			return true
		}
	}
	return false
}

// String writes the link; Parse(l.String()) gives l back.
func (l Link) String() string {
	q := url.Values{}
	q.Set("vault", l.Vault)
	q.Set("ref", l.Ref)
	if l.Page > 0 {
		q.Set("page", strconv.Itoa(l.Page))
	}
	if l.Page > 0 && !l.Region.IsZero() {
		q.Set("region", l.Region.String())
	}
	if l.Quote != "" {
		q.Set("quote", l.Quote)
	}
	// Spaces as %20 rather than "+": both read back, %20 is what other programs expect.
	return Scheme + "://open?" + strings.ReplaceAll(encodeOrdered(q), "+", "%20")
}

// encodeOrdered encodes q in the order vault, ref, page, region, quote; a
// region's commas stay as they are.
func encodeOrdered(q url.Values) string {
	var parts []string
	for _, k := range []string{"vault", "ref", "page", "region", "quote"} {
		if v := q.Get(k); v != "" {
			e := url.QueryEscape(v)
			if k == "region" {
				e = strings.ReplaceAll(e, "%2C", ",")
			}
			parts = append(parts, k+"="+e)
		}
	}
	return strings.Join(parts, "&")
}

// IsVault reports whether dir is a vault folder: a real folder (not a link
// to one) holding papers/ or Agentero's .agentero/.
func IsVault(dir string) bool {
	st, err := os.Lstat(dir)
	if err != nil || !st.IsDir() {
		return false
	}
	for _, sub := range []string{vault.PapersDir, vault.StateDir} {
		if st, err := os.Lstat(filepath.Join(dir, sub)); err == nil && st.IsDir() {
			return true
		}
	}
	return false
}

// CheckVault says, in a sentence, why the link's vault cannot be opened;
// nil when it can.
func CheckVault(l Link) error {
	st, err := os.Stat(l.Vault)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("the vault %s of this link does not exist (moved or deleted?)", l.Vault)
	case err != nil:
		return fmt.Errorf("the vault %s of this link cannot be read: %v", l.Vault, err)
	case !st.IsDir():
		return fmt.Errorf("%s is not a folder, so it is not a vault", l.Vault)
	case !IsVault(l.Vault):
		return fmt.Errorf("%s is not an Agentero vault (it has no papers/ folder)", l.Vault)
	}
	return nil
}

// ErrUnknownVault is a link whose vault is none of the user's vaults: a
// link may come from anyone, and opening a folder indexes it, so the user
// is asked first (the app), or the command says so and wants a flag.
var ErrUnknownVault = errors.New("not one of your vaults")

// CheckKnown says, in a sentence wrapping ErrUnknownVault, that the link's
// vault is none of known (the vaults the user opened before, and the open
// one); nil when it is one of them. Folders are compared where they really
// are, links resolved.
func CheckKnown(l Link, known []string) error {
	real, err := filepath.EvalSymlinks(l.Vault)
	for _, k := range known {
		if k == l.Vault {
			return nil
		}
		if rk, kerr := filepath.EvalSymlinks(k); err == nil && kerr == nil && rk == real {
			return nil
		}
	}
	return fmt.Errorf("the link opens %s, which is %w: opening it would index that folder", l.Vault, ErrUnknownVault)
}
