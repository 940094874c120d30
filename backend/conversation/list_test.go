package conversation_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/conversation"
)

// stored saves a conversation of one question and its answer, as a turn
// leaves it, with a grant folder for its session.
func stored(t *testing.T, s *conversation.Store, root, id, surface, paper, question, answer string, at time.Time) {
	t.Helper()
	c := &conversation.Conversation{ID: id, RuntimeID: id + ".s1", Surface: surface, Paper: paper, CreatedAt: at, UpdatedAt: at.Add(time.Second),
		Messages: []conversation.Message{
			{ID: "m1", Role: "user", Content: question, Agent: "builtin", At: at},
			{ID: "m2", Role: "assistant", Content: answer, Agent: "builtin", At: at.Add(time.Second)},
		}}
	if err := s.Save(c); err != nil {
		t.Fatal(err)
	}
	g := grant.Path(root, c.RuntimeID)
	if err := os.MkdirAll(filepath.Dir(g), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(g, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The conversations panel: two stored conversations (a paper's sidebar and
// Quick Chat) are listed newest first, renamed, searched in titles and
// answers, and deleted — a deleted conversation is gone from disk, folder
// and grants, and the other is untouched.
func TestListRenameSearchDelete(t *testing.T) {
	root := t.TempDir()
	st := conversation.NewStore(root, nil)
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	stored(t, st, root, "paper.papers_bitcoin", "sidebar", "papers/bitcoin", "How does proof-of-work stop double spending?",
		"Honest nodes extend the longest chain, so a double spend must outpace them.", at)
	stored(t, st, root, "quick.1", "quickChat", "", "What is a timestamp server?",
		"It hashes a block of items and publishes the hash.", at.Add(time.Hour))
	// A conversation without messages (a turn that never started) is not listed.
	if err := st.Save(&conversation.Conversation{ID: "quick.2", Messages: []conversation.Message{}}); err != nil {
		t.Fatal(err)
	}

	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Fatalf("listed %d conversations, want 2: %+v", len(list), list)
	}
	byID := map[string]conversation.Summary{}
	for _, s := range list {
		byID[s.ID] = s
	}
	paper := byID["paper.papers_bitcoin"]
	if paper.Title != "How does proof-of-work stop double spending?" || paper.Surface != "sidebar" || paper.Paper != "papers/bitcoin" ||
		paper.Agent != "builtin" || paper.Messages != 2 || paper.UpdatedAt.IsZero() || paper.Named {
		t.Errorf("paper conversation listed as %+v", paper)
	}
	if q := byID["quick.1"]; q.Surface != "quickChat" || q.Title != "What is a timestamp server?" {
		t.Errorf("Quick Chat conversation listed as %+v", q)
	}
	if list[0].ID != "quick.1" {
		t.Errorf("first listed %s, want the newest (quick.1)", list[0].ID)
	}

	renamed, err := st.Rename("quick.1", "  Timestamps\n explained ")
	if err != nil || renamed.Title != "Timestamps explained" || !renamed.Named {
		t.Fatalf("rename: %+v, %v", renamed, err)
	}
	if c, _ := st.Load("quick.1"); c.DisplayTitle() != "Timestamps explained" {
		t.Errorf("renamed title not stored: %q", c.DisplayTitle())
	}
	if _, err := st.Rename("quick.9", "x"); !errors.Is(err, conversation.ErrNoConversation) {
		t.Errorf("rename of a missing conversation: %v, want ErrNoConversation", err)
	}

	// Titles and message text are searched; every word must be somewhere.
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"timestamps", []string{"quick.1"}},
		{"DOUBLE spending", []string{"paper.papers_bitcoin"}},
		{"double timestamps", nil},
		{"", []string{"quick.1", "paper.papers_bitcoin"}},
	} {
		got, err := st.Search(tt.query)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, s := range got {
			ids = append(ids, s.ID)
		}
		if strings.Join(ids, ",") != strings.Join(tt.want, ",") {
			t.Errorf("search %q found %v, want %v", tt.query, ids, tt.want)
		}
	}
	// A match inside an answer shows the text around it.
	got, _ := st.Search("nodes")
	if len(got) != 1 || !strings.Contains(strings.ToLower(got[0].Match), "honest nodes") {
		t.Errorf("search in answers: %+v, want the paper's conversation with the text around \"nodes\"", got)
	}

	grants, _ := filepath.Glob(filepath.Join(root, ".agentero", "context-sessions", "paper.papers_bitcoin.*"))
	if len(grants) == 0 {
		t.Fatal("no grant folder to delete; the test would prove nothing")
	}
	if err := st.Delete("paper.papers_bitcoin"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".agentero", "chats", "paper.papers_bitcoin")); !os.IsNotExist(err) {
		t.Errorf("deleted conversation's folder still there: %v", err)
	}
	for _, g := range grants {
		if _, err := os.Stat(g); !os.IsNotExist(err) {
			t.Errorf("deleted conversation's grant %s still there", g)
		}
	}
	if _, err := os.Stat(grant.Path(root, "quick.1.s1")); err != nil {
		t.Errorf("the other conversation's grant was touched: %v", err)
	}
	if list, _ := st.List(); len(list) != 1 || list[0].ID != "quick.1" {
		t.Errorf("after delete, listed %+v", list)
	}
	if err := st.Delete("paper.papers_bitcoin"); !errors.Is(err, conversation.ErrNoConversation) {
		t.Errorf("second delete: %v, want ErrNoConversation", err)
	}
	if err := st.Delete("../x"); !errors.Is(err, conversation.ErrBadConversationID) {
		t.Errorf("delete ../x: %v, want ErrBadConversationID", err)
	}
}
