package workspace

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// ErrLinkRefused is a link the app will not open in the browser; the
// message says why.
var ErrLinkRefused = errors.New("this link cannot be opened from Agentero")

// MaxLinkLength is the longest link the app opens.
const MaxLinkLength = 4096

// ExternalURL checks a link the UI asks to open in the system browser and
// returns the exact URL to hand the browser, or an error (ErrLinkRefused,
// code invalid) saying why not. Links reach the app from cards (doi.org and
// arxiv.org, SPEC §1) and from answers, which may carry any https link the
// agent cited (issue 12), so the rule is about the link, not the site:
//
//   - https only, parsed as a URL (not matched as a string): no other
//     scheme, no user name or password in it, no port but 443;
//   - a host name on the internet: letters, digits and hyphens in dotted
//     labels, not an IP address, not localhost or a name for the local
//     network (.local, .localhost, .internal, .home.arpa, a single label),
//     so a link cannot reach a service on the user's own machine or LAN;
//   - every character the browser launcher refuses or a shell could
//     misread, and every non-ASCII or control character, is
//     percent-encoded in the path, query and fragment: a DOI such as
//     10.1016/S0140-6736(20)30183-5 opens as
//     https://doi.org/10.1016/S0140-6736%2820%2930183-5, which doi.org
//     resolves to the same work, instead of being dropped silently by the
//     webview runtime's URL check.
func ExternalURL(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	refuse := func(why string) (string, error) { return "", invalid(fmt.Errorf("%w: %s", ErrLinkRefused, why)) }
	if s == "" {
		return refuse("it is empty")
	}
	if len(s) > MaxLinkLength {
		return refuse("it is too long")
	}
	u, err := url.Parse(s)
	if err != nil {
		return refuse("it is not a valid web address")
	}
	switch {
	case !strings.EqualFold(u.Scheme, "https"):
		return refuse("only https links open in the browser")
	case u.Opaque != "" || u.Host == "":
		return refuse("it names no web site")
	case u.User != nil:
		return refuse("it carries a user name or password")
	case u.Port() != "" && u.Port() != "443":
		return refuse("it names a port other than https's own")
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if why := badHost(host); why != "" {
		return refuse(why)
	}
	out := "https://" + host + escapeLink(u.EscapedPath(), "/:@&=+,")
	if u.RawQuery != "" || u.ForceQuery {
		out += "?" + escapeLink(u.RawQuery, "/?:@&=+,")
	}
	if u.Fragment != "" {
		out += "#" + escapeLink(u.EscapedFragment(), "/?:@&=+,")
	}
	// What the runtime's launcher would parse back must be what we built.
	if back, err := url.Parse(out); err != nil || back.String() != out {
		return refuse("it cannot be written safely")
	}
	return out, nil
}

// badHost says why host is not a host name on the internet, or "".
func badHost(host string) string {
	if net.ParseIP(host) != nil || strings.HasPrefix(host, "[") {
		return "it names an IP address, not a web site"
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return "it names no public web site"
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return "its site name is malformed"
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return "its site name has characters a web address cannot hold"
			}
		}
	}
	for _, local := range []string{"localhost", "local", "internal", "home.arpa", "lan"} {
		if host == local || strings.HasSuffix(host, "."+local) {
			return "it names a machine on the local network"
		}
	}
	return ""
}

// escapeLink percent-encodes every byte of s (an already escaped path,
// query or fragment) but letters, digits, '-', '.', '_', the bytes of keep,
// and existing %XX escapes. '~', '!', '*', '(', ')', '[', ']', ';', '$' and
// '\” are encoded too: RFC 3986 lets them stand, but the runtime's
// launcher refuses links holding them.
func escapeLink(s, keep string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '.', c == '_',
			strings.IndexByte(keep, c) >= 0:
			b.WriteByte(c)
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteString(s[i : i+3])
			i += 2
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
