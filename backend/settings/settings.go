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

// file is the settings file: the settings, and whether its budget holds
// only the values the user chose.
type file struct {
	Settings
	// Unchosen says the budget values equal to the default were written
	// as 0 (Save, from this release on). Before, every value was written,
	// chosen or not.
	Unchosen bool `json:"budgetUnchosen,omitempty"`
}

// earlierDefaults are the budget defaults of releases that wrote every
// value: the spec's placeholders, 20,000 a read and 60,000 a turn. In a
// file of theirs, such a value is read as today's default, so that the
// measured defaults reach the users who never changed them.
var earlierDefaults = grant.Budget{FullChars: 20000, TurnChars: 60000}

// Load reads the settings at path; a missing file gives the defaults, and
// a missing or zero budget value (or an earlier release's default) its
// default.
func Load(path string) (Settings, error) {
	s := Defaults()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read settings: %w", err)
	}
	var read file
	if err := json.Unmarshal(data, &read); err != nil {
		return s, fmt.Errorf("settings file %s is not valid JSON: %w", path, err)
	}
	def := grant.DefaultBudget()
	pick := func(v, d, earlier int) int {
		if v == 0 || v == earlier {
			return d
		}
		return v
	}
	b, was := read.Budget, earlierDefaults
	if read.Unchosen {
		was = grant.Budget{}
	}
	s.Budget = grant.Budget{SearchCards: pick(b.SearchCards, def.SearchCards, was.SearchCards),
		CardsPerPaper: pick(b.CardsPerPaper, def.CardsPerPaper, was.CardsPerPaper),
		ExcerptChars:  pick(b.ExcerptChars, def.ExcerptChars, was.ExcerptChars), FullChars: pick(b.FullChars, def.FullChars, was.FullChars),
		DirEntries: pick(b.DirEntries, def.DirEntries, was.DirEntries), TurnChars: pick(b.TurnChars, def.TurnChars, was.TurnChars)}
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

// Save checks and writes the settings atomically. A budget value equal to
// its default is written as 0, not chosen: a later release's better
// default then reaches the user, as Load reads 0 as the default.
func Save(path string, s Settings) error {
	if err := s.Budget.Valid(); err != nil {
		return err
	}
	s.Budget = unchosen(s.Budget, grant.DefaultBudget())
	if err := ValidContact(s.ContactEmail); err != nil {
		return err
	}
	s.ContactEmail = strings.TrimSpace(s.ContactEmail)
	data, err := json.MarshalIndent(file{Settings: s, Unchosen: true}, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), atomicfile.Private)
}

// unchosen is b with the values equal to def's zeroed.
func unchosen(b, def grant.Budget) grant.Budget {
	zero := func(v, d int) int {
		if v == d {
			return 0
		}
		return v
	}
	return grant.Budget{SearchCards: zero(b.SearchCards, def.SearchCards), CardsPerPaper: zero(b.CardsPerPaper, def.CardsPerPaper),
		ExcerptChars: zero(b.ExcerptChars, def.ExcerptChars), FullChars: zero(b.FullChars, def.FullChars),
		DirEntries: zero(b.DirEntries, def.DirEntries), TurnChars: zero(b.TurnChars, def.TurnChars)}
}
