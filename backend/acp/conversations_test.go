package acp_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/conversation"
)

// TestConversationsListRenameSearchDelete asks two real turns of the
// built-in agent (a paper's sidebar and Quick Chat), then lists, renames,
// searches and deletes them as the conversations panel does: a deleted
// conversation is gone from disk, transcript, folder and grants.
func TestConversationsListRenameSearchDelete(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	h := newHost(t, root, db)
	ask(t, h, "paper.papers_bitcoin", "", sidebar, "How does proof-of-work stop double spending?")
	ask(t, h, "quick.1", "", nothing, "What is a timestamp server?")
	st := h.Store()

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
		paper.Agent != agentconf.BuiltinName || paper.Messages != 2 || paper.UpdatedAt.IsZero() || paper.Named {
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
	if len(got) == 0 {
		t.Error("no conversation's answer mentions nodes; pick another word")
	}
	for _, s := range got {
		if s.Match == "" || !strings.Contains(strings.ToLower(s.Match), "node") {
			t.Errorf("search in answers: %s has match %q", s.ID, s.Match)
		}
	}

	grants, _ := filepath.Glob(filepath.Join(root, ".agentero", "context-sessions", "paper.papers_bitcoin.*"))
	if len(grants) == 0 {
		t.Fatal("the paper's turn left no grant folder to delete; the test would prove nothing")
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
	if _, err := os.Stat(filepath.Join(root, ".agentero", "chats", "quick.1", "transcript.jsonl")); err != nil {
		t.Errorf("the other conversation was touched: %v", err)
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
