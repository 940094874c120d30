// Package skills finds the vault's skills (SPEC §8.4): folders
// .agents/skills/<name>/ holding a SKILL.md whose front matter gives a name
// and a description. A session's snapshot lists names and descriptions
// only; an agent reads a body on demand with the context_read_skill tool
// (progressive discovery: the list stays small, the bodies stay on disk).
package skills

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/vault"
)

// Dir is where skills live, relative to the vault.
const Dir = ".agents/skills"

// MaxSkills is the most skills listed; MaxDescription the longest
// description kept (longer ones are cut, marked).
const (
	MaxSkills      = 100
	MaxDescription = 300
)

// Skill is one skill as the snapshot lists it.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path"` // vault-relative SKILL.md
}

// Problem is a skill folder that could not be listed, and why.
type Problem struct {
	Path    string `json:"path"`
	Problem string `json:"problem"`
}

// ErrNotFound is the answer for a name that is not a skill of the vault.
var ErrNotFound = errors.New("no skill of this vault has that name: the session's snapshot lists them")

// Scan lists the vault's skills, sorted by name. A vault without skills has
// none; a SKILL.md without a name or description is a Problem, not a skill.
func Scan(vaultRoot string) ([]Skill, []Problem, error) {
	vr, err := vault.OpenRoot(vaultRoot)
	if err != nil {
		return nil, nil, err
	}
	defer vr.Close()
	_, entries, err := vr.ReadDir(Dir, vault.KindGuidance)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, []Problem{{Path: Dir, Problem: oneLine(err.Error())}}, nil
	}
	var out []Skill
	var problems []Problem
	seen := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		rel := path.Join(Dir, e.Name(), "SKILL.md")
		data, err := vault.ReadFile(context.Background(), vaultRoot, rel, vault.KindGuidance)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			problems = append(problems, Problem{Path: rel, Problem: oneLine(err.Error())})
			continue
		}
		name, desc, _, err := parse(string(data))
		if err != nil {
			problems = append(problems, Problem{Path: rel, Problem: err.Error()})
			continue
		}
		if seen[name] {
			problems = append(problems, Problem{Path: rel, Problem: fmt.Sprintf("another skill is already named %q", name)})
			continue
		}
		seen[name] = true
		out = append(out, Skill{Name: name, Description: desc, Path: rel})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	if len(out) > MaxSkills {
		problems = append(problems, Problem{Path: Dir, Problem: fmt.Sprintf("%d skills: only the first %d by name are listed", len(out), MaxSkills)})
		out = out[:MaxSkills]
	}
	return out, problems, nil
}

// Body returns the body of the skill named name (its SKILL.md after the
// front matter), read again from disk.
func Body(vaultRoot, name string) (Skill, string, error) {
	list, _, err := Scan(vaultRoot)
	if err != nil {
		return Skill{}, "", err
	}
	for _, s := range list {
		if s.Name == name {
			data, err := vault.ReadFile(context.Background(), vaultRoot, s.Path, vault.KindGuidance)
			if err != nil {
				return Skill{}, "", err
			}
			_, _, body, err := parse(string(data))
			return s, body, err
		}
	}
	return Skill{}, "", ErrNotFound
}

// parse reads SKILL.md's front matter: name and description, both needed.
func parse(text string) (name, desc, body string, err error) {
	text = strings.TrimPrefix(text, "\ufeff")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		rest, ok = strings.CutPrefix(text, "---\r\n")
	}
	if !ok {
		return "", "", "", errors.New("no front matter: a SKILL.md starts with --- and gives a name and a description")
	}
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return "", "", "", errors.New("the front matter is not closed with ---")
	}
	head := rest[:end]
	body = strings.TrimLeft(rest[end+4:], "-\r\n")
	for _, line := range strings.Split(head, "\n") {
		k, v, ok := strings.Cut(strings.TrimRight(line, "\r"), ":")
		if !ok {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		switch strings.TrimSpace(k) {
		case "name":
			name = v
		case "description":
			desc = v
		}
	}
	switch {
	case name == "":
		return "", "", "", errors.New("the front matter gives no name")
	case desc == "":
		return "", "", "", errors.New("the front matter gives no description")
	case utf8.RuneCountInString(name) > 64 || strings.ContainsAny(name, "\n<>"):
		return "", "", "", errors.New("the name is longer than 64 characters or holds < > or a line break")
	}
	if utf8.RuneCountInString(desc) > MaxDescription {
		desc = string([]rune(desc)[:MaxDescription]) + "… [description cut]"
	}
	return name, oneLine(desc), body, nil
}

// Render writes the list for a session's prompt: names and descriptions,
// and how to read a body when the session has the tool.
func Render(list []Skill, tool bool) string {
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<vault-skills>\n")
	if tool {
		b.WriteString("Skills of this vault. When one fits the task, read its instructions with the context_read_skill tool {\"name\": …} before you start.\n")
	} else {
		b.WriteString("Skills of this vault (their instructions are not readable in this session):\n")
	}
	for _, s := range list {
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, s.Description)
	}
	b.WriteString("</vault-skills>\n")
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
