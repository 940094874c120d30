package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/applink"
)

func TestCreateVault(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if err := CreateVault(empty); err != nil {
		t.Fatalf("an empty folder: %v", err)
	}
	if !applink.IsVault(empty) {
		t.Fatal("the empty folder did not become a vault")
	}
	for _, sub := range []string{"papers", ".agentero"} {
		if st, err := os.Stat(filepath.Join(empty, sub)); err != nil || !st.IsDir() {
			t.Errorf("%s/ was not made: %v", sub, err)
		}
	}
	// Again: it is a vault now, left as it is.
	os.WriteFile(filepath.Join(empty, "papers", "keep.txt"), []byte("x"), 0o644)
	if err := CreateVault(empty); err != nil {
		t.Fatalf("an existing vault: %v", err)
	}
	if _, err := os.Stat(filepath.Join(empty, "papers", "keep.txt")); err != nil {
		t.Fatal("an existing vault was changed")
	}
	// A missing folder is made.
	missing := filepath.Join(dir, "new", "vault")
	if err := CreateVault(missing); err != nil || !applink.IsVault(missing) {
		t.Fatalf("a missing folder: %v", err)
	}
	// Someone's folder of other things is refused, with a sentence, untouched.
	busy := filepath.Join(dir, "busy")
	os.Mkdir(busy, 0o755)
	os.WriteFile(filepath.Join(busy, "taxes.pdf"), []byte("%PDF"), 0o644)
	err := CreateVault(busy)
	if !errors.Is(err, ErrNotEmpty) || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), busy) {
		t.Fatalf("a non-empty folder: %v", err)
	}
	if entries, _ := os.ReadDir(busy); len(entries) != 1 {
		t.Fatalf("the refused folder was changed: %v", entries)
	}
	if err := CreateVault("relative/dir"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a relative path: %v", err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	if err := CreateVault(file); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a file: %v", err)
	}
}

func TestRecentVaults(t *testing.T) {
	cfg := NewConfig(filepath.Join(t.TempDir(), "config"), "/bin/true")
	if got := cfg.RecentVaults(); len(got) != 0 {
		t.Fatalf("a new configuration lists %v", got)
	}
	base := t.TempDir()
	var vaults []string
	for i := 0; i < MaxRecentVaults+2; i++ {
		v := filepath.Join(base, fmt.Sprintf("v%02d", i))
		if err := CreateVault(v); err != nil {
			t.Fatal(err)
		}
		vaults = append(vaults, v)
		if err := cfg.AddRecentVault(v); err != nil {
			t.Fatal(err)
		}
	}
	cfg.AddRecentVault(vaults[5]) // opened again: first, once
	got := cfg.RecentVaults()
	if len(got) != MaxRecentVaults {
		t.Fatalf("%d recent vaults, want %d", len(got), MaxRecentVaults)
	}
	if got[0].Path != vaults[5] || got[1].Path != vaults[len(vaults)-1] || got[0].Name != "v05" {
		t.Fatalf("order: %+v", got[:2])
	}
	seen := map[string]bool{}
	for _, r := range got {
		if seen[r.Path] {
			t.Fatalf("%s listed twice", r.Path)
		}
		seen[r.Path] = true
	}
	// A vault deleted since is listed as missing; forgotten, it is gone.
	os.RemoveAll(vaults[len(vaults)-1])
	if got := cfg.RecentVaults(); !got[1].Missing || got[0].Missing {
		t.Fatalf("missing flags: %+v", got[:2])
	}
	if err := cfg.ForgetVault(vaults[len(vaults)-1]); err != nil {
		t.Fatal(err)
	}
	if got := cfg.RecentVaults(); got[1].Path == vaults[len(vaults)-1] || len(got) != MaxRecentVaults-1 {
		t.Fatalf("after forgetting: %+v", got)
	}
}
