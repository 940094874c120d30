package intake

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentero/agentero/internal/corpustest"
	"github.com/agentero/agentero/internal/zoterotest"
	"github.com/google/go-cmp/cmp"
)

// Zotero's child notes come into the vault as the paper's NOTES.md, as
// Markdown: headings, lists, paragraphs and entities from Zotero's HTML,
// oldest first; a trashed note and a standalone note are left out. A
// NOTES.md the user wrote is never replaced; a paper that had no notes
// gets them when a later import finds some.
func TestImportZoteroNotes(t *testing.T) {
	corpus := corpustest.NeedCorpus(t)
	z := zoterotest.New(t)
	raft := z.Item("journalArticle", "RAFT0001", map[string]string{"title": "In Search of an Understandable Consensus Algorithm", "date": "2014"},
		[2]string{"Diego", "Ongaro"}, [2]string{"John", "Ousterhout"})
	z.Stored(raft, "STORRAFT", "raft.pdf", filepath.Join(corpus, "in-search-of-an-understandable-consensus-algorithm.pdf"))
	z.Note(raft, "NOTERAF1", `<div data-schema-version="9"><h1>Leader election</h1><p>Randomized timeouts &amp; <strong>terms</strong>.</p><ul><li>one leader per term</li><li>votes are <em>persisted</em></li></ul></div>`)
	z.Note(raft, "NOTERAF2", `<p>Compare with Paxos,<br>section 10.</p>`)
	trashed := z.Note(raft, "NOTERAF3", `<p>An old thought.</p>`)
	z.Trash(trashed)
	z.Note(0, "NOTEALON", `<p>A standalone note about nothing.</p>`)
	btc := z.Item("journalArticle", "BTC00001", map[string]string{"title": "Bitcoin: A Peer-to-Peer Electronic Cash System", "date": "2008"},
		[2]string{"Satoshi", "Nakamoto"})
	z.Stored(btc, "STORBTC1", "bitcoin.pdf", filepath.Join(corpus, "bitcoin.pdf"))

	root := t.TempDir()
	rep, err := ImportZotero(context.Background(), z.Dir, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Added) != 2 {
		t.Fatalf("added %+v", rep.Added)
	}
	raftRef, btcRef := rep.Added[0].Ref, rep.Added[1].Ref
	want := "# Notes from Zotero\n\n" +
		"## Leader election\n\nRandomized timeouts & terms.\n\n- one leader per term\n- votes are persisted" +
		"\n\n---\n\n" +
		"Compare with Paxos,\nsection 10.\n"
	got, err := os.ReadFile(filepath.Join(root, raftRef, NotesFile))
	if err != nil {
		t.Fatalf("the notes were not written: %v", err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("%s/NOTES.md (-want +got):\n%s", raftRef, diff)
	}
	if _, err := os.Stat(filepath.Join(root, btcRef, NotesFile)); err == nil {
		t.Errorf("%s has no notes in Zotero but got a NOTES.md", btcRef)
	}

	// The user rewrites raft's notes; Zotero gets new notes on both papers.
	mine := []byte("# my own notes\n")
	os.WriteFile(filepath.Join(root, raftRef, NotesFile), mine, 0o644)
	z.Note(raft, "NOTERAF4", `<p>Later note.</p>`)
	z.Note(btc, "NOTEBTC1", `<p>Proof of work &gt; proof of stake?</p>`)
	rep, err = ImportZotero(context.Background(), z.Dir, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, raftRef, NotesFile)); string(got) != string(mine) {
		t.Errorf("the user's NOTES.md was replaced: %q", got)
	}
	got, _ = os.ReadFile(filepath.Join(root, btcRef, NotesFile))
	if string(got) != "# Notes from Zotero\n\nProof of work > proof of stake?\n" {
		t.Errorf("bitcoin's new note: %q", got)
	}
	if len(rep.Updated) != 1 || rep.Updated[0].Ref != btcRef || !cmp.Equal(rep.Updated[0].Changed, []string{"notes"}) {
		t.Errorf("updated %+v, want bitcoin's notes", rep.Updated)
	}
}
