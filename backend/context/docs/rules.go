package docs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/agentero/agentero/backend/vault"
)

// RulesFile is the name of the root rules inside the context folder.
const RulesFile = "rules.json"

// DefaultPreloadBudget is the byte budget of the preloaded bodies (SPEC §11).
const DefaultPreloadBudget = 16000

// DefaultManifestBudget is the byte budget of the manifest itself: its
// entries (ids, descriptions, load states and hints) with every body left
// out. A manifest over it fails loudly.
const DefaultManifestBudget = 8000

// maxPreloadBudget bounds a configured budget: past it the manifest would
// crowd out the conversation in any agent's window.
const maxPreloadBudget = 1 << 20

// Rules are the vault's assembly rules (rules.json). Patterns are slash
// paths relative to the context folder, matched like path.Match per
// segment, with "**" matching any number of segments.
//
// forbiddenLoad wins over preloadPaths, which wins over a document's own
// trigger. forbiddenLoad keeps a document out of the manifest and the
// index; it can still be listed and read on request, like a manual one.
type Rules struct {
	PreloadPaths      []string       `json:"preloadPaths,omitempty"`
	ForbiddenLoad     []string       `json:"forbiddenLoad,omitempty"`
	PriorityRules     []PriorityRule `json:"priorityRules,omitempty"`
	PreloadByteBudget int            `json:"preloadByteBudget,omitempty"` // bodies; 0 means DefaultPreloadBudget
	// ManifestByteBudget is the manifest's own budget (entries without
	// bodies); 0 means DefaultManifestBudget.
	ManifestByteBudget int `json:"manifestByteBudget,omitempty"`
}

// PriorityRule overrides the priority of the documents its pattern matches.
// The first matching rule wins.
type PriorityRule struct {
	Pattern  string   `json:"pattern"`
	Priority Priority `json:"priority"`
}

// readRules reads rules.json from the context folder of the vault at root
// (through the vault's opener); a missing file is no rules. The file is
// read strictly: a misspelt key would otherwise silently drop a
// forbiddenLoad the user relies on.
func readRules(root string) (Rules, error) {
	var r Rules
	data, err := vault.ReadFile(context.Background(), root, Dir+"/"+RulesFile, vault.KindContextDoc)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("read context rules: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("context rules %s: %w", RulesFile, err)
	}
	if dec.More() {
		return r, fmt.Errorf("context rules %s: trailing data after the JSON object", RulesFile)
	}
	if err := r.validate(); err != nil {
		return r, fmt.Errorf("context rules %s: %w", RulesFile, err)
	}
	return r, nil
}

func (r Rules) validate() error {
	if r.PreloadByteBudget < 0 || r.PreloadByteBudget > maxPreloadBudget {
		return fmt.Errorf("preloadByteBudget must be between 1 and %d bytes (0 or absent: %d)", maxPreloadBudget, DefaultPreloadBudget)
	}
	if r.ManifestByteBudget < 0 || r.ManifestByteBudget > maxPreloadBudget {
		return fmt.Errorf("manifestByteBudget must be between 1 and %d bytes (0 or absent: %d)", maxPreloadBudget, DefaultManifestBudget)
	}
	check := func(field, p string) error {
		if err := validPattern(p); err != nil {
			return fmt.Errorf("%s pattern %q: %w", field, clip(p), err)
		}
		return nil
	}
	for _, p := range r.PreloadPaths {
		if err := check("preloadPaths", p); err != nil {
			return err
		}
	}
	for _, p := range r.ForbiddenLoad {
		if err := check("forbiddenLoad", p); err != nil {
			return err
		}
	}
	for _, pr := range r.PriorityRules {
		if err := check("priorityRules", pr.Pattern); err != nil {
			return err
		}
		if _, ok := parsePriority(string(pr.Priority)); !ok {
			return fmt.Errorf("priorityRules priority %q is not one of critical, high, normal, low", clip(string(pr.Priority)))
		}
	}
	return nil
}

// forbidden, preloaded and priority apply the rules to one document id.
func (r Rules) forbidden(id string) bool { return matchAny(r.ForbiddenLoad, id) }
func (r Rules) preloaded(id string) bool { return matchAny(r.PreloadPaths, id) }

func (r Rules) priority(id string, own Priority) Priority {
	for _, pr := range r.PriorityRules {
		if match(pr.Pattern, id) {
			return pr.Priority
		}
	}
	return own
}

func validPattern(p string) error {
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\x00\\") {
		return errors.New("must be a relative slash path inside the context folder")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return errors.New("must be a clean path inside the context folder")
		}
		if _, err := path.Match(seg, ""); err != nil {
			return err
		}
	}
	return nil
}

func matchAny(patterns []string, id string) bool {
	for _, p := range patterns {
		if match(p, id) {
			return true
		}
	}
	return false
}

// match reports whether a slash id matches a pattern whose segments are
// path.Match patterns or "**" (any number of segments, none included).
func match(pattern, id string) bool {
	return matchSegs(strings.Split(pattern, "/"), strings.Split(id, "/"))
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
