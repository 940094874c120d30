package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/vault"
)

// MaxRecentVaults is how many vaults the vault menu remembers.
const MaxRecentVaults = 10

// RecentVault is a vault opened before, newest first in RecentVaults.
type RecentVault struct {
	Path    string `json:"path"`
	Name    string `json:"name"`
	Missing bool   `json:"missing"` // no longer there, or no longer a vault
	Current bool   `json:"current"` // the one open now (set by the app)
}

// recentFile holds the recent vaults' paths, newest first.
const recentFile = "recent-vaults.json"

// RecentVaults lists the vaults opened before, newest first.
func (c *Config) RecentVaults() []RecentVault {
	c.mu.Lock()
	paths := c.readRecent()
	c.mu.Unlock()
	out := []RecentVault{}
	for _, p := range paths {
		out = append(out, RecentVault{Path: p, Name: filepath.Base(p), Missing: !applink.IsVault(p)})
	}
	return out
}

// ForgetVault removes path from the recent vaults.
func (c *Config) ForgetVault(path string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var keep []string
	for _, p := range c.readRecent() {
		if p != path {
			keep = append(keep, p)
		}
	}
	return c.writeRecent(keep)
}

// readRecent reads the list (c.mu held); a missing or unreadable file is
// an empty list, with the last vault in it.
func (c *Config) readRecent() []string {
	var paths []string
	if f, err := c.file(recentFile); err == nil {
		if h, err := os.Open(f); err == nil {
			b, _ := io.ReadAll(io.LimitReader(h, 1<<20))
			h.Close()
			json.Unmarshal(b, &paths)
		}
	}
	var clean []string
	seen := map[string]bool{}
	for _, p := range paths {
		if filepath.IsAbs(p) && filepath.Clean(p) == p && !seen[p] && len(clean) < MaxRecentVaults {
			seen[p] = true
			clean = append(clean, p)
		}
	}
	return clean
}

// AddRecentVault puts root first among the recent vaults (the app calls it
// with RememberVault when a vault opens).
func (c *Config) AddRecentVault(root string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.addRecent(root)
}

// addRecent puts root first in the list (c.mu held).
func (c *Config) addRecent(root string) error {
	list := []string{root}
	for _, p := range c.readRecent() {
		if p != root && len(list) < MaxRecentVaults {
			list = append(list, p)
		}
	}
	return c.writeRecent(list)
}

func (c *Config) writeRecent(paths []string) error {
	if paths == nil {
		paths = []string{}
	}
	f, err := c.file(recentFile)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(paths, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(f, append(b, '\n'), atomicfile.Private)
}

// ErrNotEmpty is why a folder that holds files but is not a vault is not
// made one.
var ErrNotEmpty = errors.New("the folder is not empty and is not a vault")

// CreateVault makes dir a new vault: an empty (or missing) folder gets
// papers/ and Agentero's .agentero/. A folder that is already a vault is
// left as it is. A folder that holds other things is refused: turning
// someone's folder into a vault would index whatever is in it.
func CreateVault(dir string) error {
	if !filepath.IsAbs(dir) {
		return invalid(fmt.Errorf("a new vault needs an absolute folder path, not %q", dir))
	}
	dir = filepath.Clean(dir)
	if applink.IsVault(dir) {
		return nil
	}
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("could not make the folder %s: %w", dir, err)
		}
	case err != nil:
		return fmt.Errorf("could not read the folder %s: %w", dir, err)
	case !st.IsDir():
		return invalid(fmt.Errorf("%s is not a folder", dir))
	default:
		entries, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("could not read the folder %s: %w", dir, err)
		}
		if len(entries) > 0 {
			return invalid(fmt.Errorf("%s is not empty and is not a vault: choose an empty folder for a new vault, or use Open vault… for a folder of papers (%w)", dir, ErrNotEmpty))
		}
	}
	if err := os.Mkdir(filepath.Join(dir, vault.PapersDir), 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("could not make %s/papers: %w", dir, err)
	}
	if _, err := vault.StateFolder(dir); err != nil {
		return err
	}
	return nil
}

// EnsurePapersFolder makes dir's papers/ when it has none, as a folder the
// user chose to use as a vault gets it (SPEC §1: papers live under
// papers/); an existing papers/ is left as it is.
func EnsurePapersFolder(dir string) error {
	err := os.Mkdir(filepath.Join(dir, vault.PapersDir), 0o755)
	if err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("could not make %s/papers: %w", dir, err)
	}
	return nil
}
