package conversation

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/vault"
)

// Summary is one conversation as the conversations list shows it: its
// title (the name the user gave it, else its first question), where it was
// asked, by which agent, and when.
type Summary struct {
	ID      string `json:"id"`
	Surface string `json:"surface"` // sidebar or quickChat
	Title   string `json:"title"`
	// Named is true when the user gave the title (Rename).
	Named bool   `json:"named"`
	Paper string `json:"paper,omitempty"` // the paper a sidebar conversation is about
	Agent string `json:"agent"`
	// Messages counts the visible messages (questions and answers).
	Messages  int       `json:"messages"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// Match is the text around the first match of a search ("" when the
	// title matched, or when listing).
	Match string `json:"match,omitempty"`
}

// MaxTitle is the longest title kept, in characters.
const MaxTitle = 200

// ErrNoConversation is returned for a conversation with no folder.
var ErrNoConversation = errors.New("there is no such conversation in this vault")

// DisplayTitle is the conversation's title: the user's, else its first
// question on one line, cut at 80 characters.
func (c *Conversation) DisplayTitle() string {
	if c.Title != "" {
		return c.Title
	}
	for _, m := range c.Messages {
		if m.Role == "user" && strings.TrimSpace(m.Content) != "" {
			return cutRunes(oneLine(m.Content), 80)
		}
	}
	return "Untitled conversation"
}

func (c *Conversation) summary() Summary {
	s := Summary{ID: c.ID, Surface: c.Surface, Title: c.DisplayTitle(), Named: c.Title != "", Paper: c.Paper,
		Agent: c.Agent, Messages: len(c.Messages), CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
	if s.Surface == "" {
		s.Surface = surfaceOf(c.ID)
	}
	if s.Agent == "" {
		for i := len(c.Messages) - 1; i >= 0; i-- {
			if c.Messages[i].Agent != "" {
				s.Agent = c.Messages[i].Agent
				break
			}
		}
	}
	if s.UpdatedAt.IsZero() && len(c.Messages) > 0 {
		s.UpdatedAt = c.Messages[len(c.Messages)-1].At
	}
	if s.CreatedAt.IsZero() && len(c.Messages) > 0 {
		s.CreatedAt = c.Messages[0].At
	}
	return s
}

// surfaceOf guesses the surface of a conversation stored before it was
// kept, from the id the UI gave it.
func surfaceOf(id string) string {
	if strings.HasPrefix(id, "quick.") {
		return "quickChat"
	}
	return "sidebar"
}

// List returns the vault's conversations that hold at least one message,
// the most recently updated first. A conversation whose state cannot be
// read is left out and logged; the others are still listed.
func (s *Store) List() ([]Summary, error) {
	return s.list(func(*Conversation) (string, bool) { return "", true })
}

// Search returns the conversations whose title or any message holds every
// word of query (case-insensitive), the most recently updated first, each
// with the text around its first match in a message.
func (s *Store) Search(query string) ([]Summary, error) {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return s.List()
	}
	return s.list(func(c *Conversation) (string, bool) {
		title := strings.ToLower(c.DisplayTitle())
		texts := make([]string, len(c.Messages))
		for i, m := range c.Messages {
			texts[i] = strings.ToLower(m.Content)
		}
		match := ""
		for _, w := range words {
			found := strings.Contains(title, w)
			for i, t := range texts {
				if j := strings.Index(t, w); j >= 0 {
					if match == "" && !strings.Contains(title, w) {
						match = around(c.Messages[i].Content, t, j, len(w))
					}
					found = true
					break
				}
			}
			if !found {
				return "", false
			}
		}
		return match, true
	})
}

func (s *Store) list(keep func(*Conversation) (string, bool)) ([]Summary, error) {
	dirs, err := os.ReadDir(s.root)
	if errors.Is(err, fs.ErrNotExist) {
		return []Summary{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	out := []Summary{}
	for _, d := range dirs {
		if !d.IsDir() || !grant.ValidRuntimeID(d.Name()) {
			continue
		}
		c, err := s.Load(d.Name())
		if err != nil {
			s.log.Warn("conversation left out of the list", "conversation", d.Name(), "err", err)
			continue
		}
		if len(c.Messages) == 0 {
			continue
		}
		match, ok := keep(c)
		if !ok {
			continue
		}
		sum := c.summary()
		sum.Match = match
		out = append(out, sum)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].UpdatedAt.Equal(out[j].UpdatedAt) {
			return out[i].UpdatedAt.After(out[j].UpdatedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// Rename gives a conversation a title; an empty title goes back to its
// first question. The caller holds the conversation (see Store).
func (s *Store) Rename(id, title string) (Summary, error) {
	title = cutRunes(oneLine(title), MaxTitle)
	c, err := s.existing(id)
	if err != nil {
		return Summary{}, err
	}
	c.Title = title
	if err := s.Save(c); err != nil {
		return Summary{}, err
	}
	return c.summary(), nil
}

// Delete removes a conversation from disk: its folder (state, transcript,
// compaction, frozen context) and the grants of its sessions
// (context-sessions/<id>.*). The caller holds the conversation (see
// Store).
func (s *Store) Delete(id string) error {
	if !grant.ValidRuntimeID(id) {
		return ErrBadConversationID
	}
	dir, err := vault.FindStateFolder(s.vault, "chats", id)
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNoConversation
	}
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("delete conversation: %w", err)
	}
	sessions := filepath.Join(s.vault, vault.StateDir, "context-sessions")
	entries, err := os.ReadDir(sessions)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete the conversation's grants: %w", err)
	}
	for _, e := range entries {
		if !OwnRuntimeID(id, e.Name()) {
			continue
		}
		// Only real folders of the state folder: a link planted there is
		// removed as a link, never followed.
		if err := os.RemoveAll(filepath.Join(sessions, e.Name())); err != nil {
			return fmt.Errorf("delete the conversation's grants: %w", err)
		}
	}
	return nil
}

// existing loads a conversation that has a folder (ErrNoConversation if not).
func (s *Store) existing(id string) (*Conversation, error) {
	if !grant.ValidRuntimeID(id) {
		return nil, ErrBadConversationID
	}
	if _, err := vault.FindStateFolder(s.vault, "chats", id); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ErrNoConversation
		}
		return nil, err
	}
	return s.Load(id)
}

// cutRunes shortens s to n characters, with "…" when it cut.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// around is the text of original around the match at byte i (of length n)
// of its lower-cased form lower, on one line, about 120 characters.
func around(original, lower string, i, n int) string {
	if len(lower) != len(original) {
		// Lower-casing changed the byte lengths: show the start instead.
		return cutRunes(oneLine(original), 120)
	}
	start, end := max(0, i-50), min(len(original), i+n+70)
	for start > 0 && !utf8.RuneStart(original[start]) {
		start--
	}
	for end < len(original) && !utf8.RuneStart(original[end]) {
		end++
	}
	out := oneLine(original[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(original) {
		out += "…"
	}
	return out
}

// oneLine collapses a text's runs of white space, line breaks included, to
// single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
