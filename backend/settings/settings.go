// Package settings keeps the user's preferences that the backend acts on,
// in a file of the user's config directory (never in a vault; the
// workspace's Config says which file).
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/context/grant"
)

// Settings are the user's preferences.
type Settings struct {
	// Budget caps what the agentero-context tools return in a turn; it is
	// part of every plan's fingerprint, so changing it starts new sessions.
	Budget grant.Budget `json:"budget"`
	// MetadataOnline lets Agentero look papers' DOIs up at Crossref and
	// their arXiv ids at arXiv (backend/metadata): off until the user
	// switches it on.
	MetadataOnline bool `json:"metadataOnline"`
	// MetadataOnlineAsked records that the user answered the question the
	// app asks at the first import (look up online, or stay offline), so
	// that it is asked once; switching lookups on in Settings answers it too.
	MetadataOnlineAsked bool `json:"metadataOnlineAsked"`
	// ContactEmail, when set, is sent in the User-Agent of those lookups
	// (Crossref's "polite pool"); nothing else identifies the user.
	ContactEmail string `json:"contactEmail"`
}

// Defaults are the settings of a fresh install.
func Defaults() Settings { return Settings{Budget: grant.DefaultBudget()} }

// Load reads the settings at path; a missing file gives the defaults, and
// a missing or zero budget value its default.
func Load(path string) (Settings, error) {
	s := Defaults()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read settings: %w", err)
	}
	var read Settings
	if err := json.Unmarshal(data, &read); err != nil {
		return s, fmt.Errorf("settings file %s is not valid JSON: %w", path, err)
	}
	def := grant.DefaultBudget()
	pick := func(v, d int) int {
		if v == 0 {
			return d
		}
		return v
	}
	b := read.Budget
	s.Budget = grant.Budget{SearchCards: pick(b.SearchCards, def.SearchCards), CardsPerPaper: pick(b.CardsPerPaper, def.CardsPerPaper),
		ExcerptChars: pick(b.ExcerptChars, def.ExcerptChars), FullChars: pick(b.FullChars, def.FullChars),
		DirEntries: pick(b.DirEntries, def.DirEntries), TurnChars: pick(b.TurnChars, def.TurnChars)}
	if err := s.Budget.Valid(); err != nil {
		return Defaults(), fmt.Errorf("settings file %s: %w", path, err)
	}
	s.MetadataOnline = read.MetadataOnline
	s.MetadataOnlineAsked = read.MetadataOnlineAsked || read.MetadataOnline
	if ValidContact(read.ContactEmail) == nil {
		s.ContactEmail = strings.TrimSpace(read.ContactEmail)
	}
	return s, nil
}

// ValidContact checks a contact email: empty, or one address.
func ValidContact(email string) error {
	e := strings.TrimSpace(email)
	if e == "" {
		return nil
	}
	at := strings.IndexByte(e, '@')
	if at < 1 || at == len(e)-1 || strings.ContainsAny(e, " \t\r\n()<>,;") || len(e) > 200 {
		return fmt.Errorf("the contact email %q is not an email address, such as name@example.org", e)
	}
	return nil
}

// Save checks and writes the settings atomically.
func Save(path string, s Settings) error {
	if err := s.Budget.Valid(); err != nil {
		return err
	}
	if err := ValidContact(s.ContactEmail); err != nil {
		return err
	}
	s.ContactEmail = strings.TrimSpace(s.ContactEmail)
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), atomicfile.Private)
}
