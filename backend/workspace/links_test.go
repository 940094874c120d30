package workspace_test

import (
	"errors"
	"net/url"
	"regexp"
	"testing"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/workspace"
)

// launcherRefuses mirrors the checks Wails' runtime makes before it starts
// the browser (internal/frontend/utils.ValidateAndSanitizeURL, v2.11): a
// link holding any of these after url.Parse and String is dropped, with
// nothing but a log line.
var launcherRefuses = regexp.MustCompile("[;\\|`$\\\\<>*{}\\[\\]()~! \\t\\n\\r\u0000-\u001F\u007F\u00A0\u1680\u2000-\u200F\u2028-\u202F\u205F\u2060\u3000\uFEFF]")

// TestExternalURL: links open when they are https to a site on the
// internet, written so that the launcher takes them; everything else is
// refused with the invalid code and a reason.
func TestExternalURL(t *testing.T) {
	opens := []struct{ name, link, want string }{
		{"DOI", "https://doi.org/10.1145/2815400.2815428", "https://doi.org/10.1145/2815400.2815428"},
		{"DOI with parentheses", "https://doi.org/10.1016/S0140-6736(20)30183-5", "https://doi.org/10.1016/S0140-6736%2820%2930183-5"},
		{"DOI as cards write it", "https://doi.org/10.1016/S0140-6736%2820%2930183-5", "https://doi.org/10.1016/S0140-6736%2820%2930183-5"},
		{"DOI with brackets", "https://doi.org/10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0",
			"https://doi.org/10.1002/%28SICI%291097-4571%28199806%2949:8%3C693::AID-ASI4%3E3.0.CO%3B2-0"},
		{"arXiv", "https://arxiv.org/abs/1706.03762", "https://arxiv.org/abs/1706.03762"},
		{"an answer's link", "https://en.wikipedia.org/wiki/Raft_(algorithm)", "https://en.wikipedia.org/wiki/Raft_%28algorithm%29"},
		{"query and fragment", "https://example.org/a b?q=x y&z=~1#sec(2)", "https://example.org/a%20b?q=x%20y&z=%7E1#sec%282%29"},
		{"upper-case host, port 443", "HTTPS://ArXiv.ORG:443/abs/1706.03762", "https://arxiv.org/abs/1706.03762"},
		{"non-ASCII path", "https://example.org/Gödel", "https://example.org/G%C3%B6del"},
		{"surrounding space", "  https://arxiv.org/abs/1706.03762\n", "https://arxiv.org/abs/1706.03762"},
	}
	for _, c := range opens {
		t.Run(c.name, func(t *testing.T) {
			got, err := workspace.ExternalURL(c.link)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
			u, err := url.Parse(got)
			if err != nil || launcherRefuses.MatchString(u.String()) {
				t.Errorf("the launcher would drop %q (%v)", u.String(), err)
			}
		})
	}
	refused := []struct{ name, link string }{
		{"empty", ""},
		{"http", "http://doi.org/10.1145/2815400.2815428"},
		{"javascript", "javascript:alert(1)"},
		{"file", "file:///etc/passwd"},
		{"a vault path", "papers/raft/paper.pdf#page=3"},
		{"the app's own origin", "wails://wails/vault/papers/a/paper.pdf"},
		{"credentials", "https://user:pass@doi.org/10.1/x"},
		{"a user name", "https://user@doi.org/10.1/x"},
		{"another port", "https://doi.org:8443/10.1/x"},
		{"an IP address", "https://127.0.0.1/admin"},
		{"an IPv6 address", "https://[::1]/admin"},
		{"localhost", "https://localhost/admin"},
		{"a local name", "https://printer.local/"},
		{"a single label", "https://intranet/"},
		{"an opaque link", "https:doi.org/10.1/x"},
		{"no host", "https:///10.1/x"},
		{"a host with odd characters", "https://exa_mple.org/"},
		{"a unicode host", "https://exаmple.org/"},
		{"too long", "https://example.org/" + string(make([]byte, workspace.MaxLinkLength))},
	}
	for _, c := range refused {
		t.Run("refuses "+c.name, func(t *testing.T) {
			got, err := workspace.ExternalURL(c.link)
			if err == nil {
				t.Fatalf("opened as %q", got)
			}
			if !errors.Is(err, workspace.ErrLinkRefused) || workspace.Code(err) != events.CodeInvalid {
				t.Errorf("err %v (code %s), want ErrLinkRefused with code invalid", err, workspace.Code(err))
			}
		})
	}
}
