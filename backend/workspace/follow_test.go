package workspace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
)

// A link to a paper whose folder is in the vault but not yet indexed waits
// for the index and is followed once a sync takes the paper in: it wakes on
// the index's change, long before its own time is up. A paper that is not
// in the vault, a page past its end and a link that is not one fail at
// once, each with its code.
func TestFollowLink(t *testing.T) {
	root := corpustest.Vault(t, "peercoin.pdf")
	if err := os.MkdirAll(filepath.Join(root, "papers", "later"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := open(t, root, workspace.Options{})
	if _, err := f.ws.Sync(background()); err != nil {
		t.Fatal(err)
	}
	link := func(ref string, page int) applink.Link {
		abs, err := filepath.Abs(root)
		if err != nil {
			t.Fatal(err)
		}
		return applink.Link{Vault: abs, Ref: ref, Page: page}
	}

	got, err := f.ws.FollowLink(background(), link("papers/peercoin", 2), time.Minute)
	if err != nil || got.Ref != "papers/peercoin" || got.Page != 2 || got.PDFPath != "papers/peercoin/peercoin.pdf" {
		t.Fatalf("FollowLink(peercoin p. 2) = %+v, %v", got, err)
	}

	for _, tt := range []struct {
		name string
		l    applink.Link
		code string
	}{
		{"missing paper", link("papers/nowhere", 1), events.CodeNotFound},
		{"page past the end", link("papers/peercoin", 99), events.CodeInvalid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := f.ws.FollowLink(background(), tt.l, time.Minute)
			if code := workspace.Code(err); code != tt.code {
				t.Errorf("FollowLink: %v (code %q), want code %q", err, code, tt.code)
			}
			if waited := time.Since(start); waited > 20*time.Second {
				t.Errorf("FollowLink waited %v for a link it could refuse at once", waited)
			}
		})
	}
	if _, err := workspace.CheckLink("agentero://open?vault=relative", nil, true); workspace.Code(err) != events.CodeInvalid {
		t.Errorf("CheckLink(bad link) = %v (code %q), want invalid", err, workspace.Code(err))
	}
	_, err = workspace.CheckLink(applink.Link{Vault: link("", 1).Vault, Ref: "papers/peercoin", Page: 1}.String(), nil, false)
	if !errors.Is(err, applink.ErrUnknownVault) || workspace.Code(err) != events.CodeInvalid {
		t.Errorf("CheckLink(unknown vault) = %v (code %q), want ErrUnknownVault, invalid", err, workspace.Code(err))
	}

	// The folder is there, its PDF not yet indexed: the link waits.
	type result struct {
		t   *workspace.LinkTarget
		err error
	}
	done := make(chan result, 1)
	ctx, cancel := context.WithCancel(background())
	defer cancel()
	go func() {
		t, err := f.ws.FollowLink(ctx, link("papers/later", 1), 10*time.Minute)
		done <- result{t, err}
	}()
	select {
	case r := <-done:
		t.Fatalf("a link to a folder not yet indexed returned before the index had it: %+v, %v", r.t, r.err)
	case <-time.After(500 * time.Millisecond):
	}
	corpustest.CopyFile(t, filepath.Join(corpustest.Dir(), "peercoin.pdf"), filepath.Join(root, "papers", "later", "later.pdf"))
	if _, err := f.ws.Sync(background()); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r.err != nil || r.t.Ref != "papers/later" {
			t.Fatalf("FollowLink after the sync = %+v, %v", r.t, r.err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("FollowLink was not woken by the sync that indexed its paper")
	}
}
