package docs

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Trigger says when a context document enters a session (SPEC §8.2).
type Trigger string

// Triggers. A document that declares none is Manual.
const (
	AlwaysOn      Trigger = "always_on"      // in every session's manifest, body as the budget allows
	ModelDecision Trigger = "model_decision" // id and description in the index, body on request
	Manual        Trigger = "manual"         // only through context_list_docs and context_read_doc
)

// Priority orders assembly: higher is assembled first and cut last.
type Priority string

// Priorities, highest first. A document that declares none is Normal.
const (
	Critical Priority = "critical"
	High     Priority = "high"
	Normal   Priority = "normal"
	Low      Priority = "low"
)

// rank is the assembly order of a priority: lower comes first.
func (p Priority) rank() int {
	switch p {
	case Critical:
		return 0
	case High:
		return 1
	case Normal:
		return 2
	default:
		return 3
	}
}

func parsePriority(s string) (Priority, bool) {
	switch p := Priority(s); p {
	case Critical, High, Normal, Low:
		return p, true
	}
	return "", false
}

// maxDescription bounds a description: it is repeated in every session's
// prompt, so it is a line, not a paragraph.
const maxDescription = 500

// meta is what a document's front matter declares.
type meta struct {
	description string
	trigger     Trigger
	priority    Priority
	trustLevel  string // user | workspace | external
	sensitivity string // public | internal | sensitive
	front       bool   // the document has front matter
}

// Trust levels and sensitivities a document may declare (seed 003).
var (
	TrustLevels   = []string{"user", "workspace", "external"}
	Sensitivities = []string{"public", "internal", "sensitive"}
)

// Defaults for a document that declares neither.
const (
	DefaultTrust       = "workspace"
	DefaultSensitivity = "internal"
	// Sensitive is the sensitivity never preloaded into a remote session.
	Sensitive = "sensitive"
)

var keyLine = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(.*)$`)

// parseDoc splits a document into its front matter and body. The front
// matter is a YAML-like block between "---" lines at the very top: one
// "key: value" a line, values plain or quoted. Unknown keys are tolerated
// (with any indented lines under them); a malformed block, a known key
// given twice or with anything but a one-line string, or an unknown trigger
// or priority is an error, so that a typo is shown to the user rather than
// silently read as a manual document.
func parseDoc(data []byte) (meta, []byte, error) {
	m := meta{trigger: Manual, priority: Normal, trustLevel: DefaultTrust, sensitivity: DefaultSensitivity}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	first, rest, ok := cutLine(data)
	if strings.TrimRight(first, " \t") != "---" {
		return m, data, nil // no front matter: the whole file is the body
	}
	if !ok {
		return m, nil, fmt.Errorf("front matter is not closed by a --- line")
	}
	m.front = true
	seen := map[string]bool{}
	known := false // whether the last key was one of ours (no continuation lines allowed)
	for n := 2; ; n++ {
		if len(rest) == 0 {
			return m, nil, fmt.Errorf("front matter is not closed by a --- line")
		}
		var line string
		line, rest, _ = cutLine(rest)
		trimmed := strings.TrimRight(line, " \t")
		if trimmed == "---" || trimmed == "..." {
			return m, rest, nil
		}
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' || strings.HasPrefix(line, "- ") || line == "-" {
			if known || len(seen) == 0 {
				return m, nil, fmt.Errorf("front matter line %d: unexpected indented line; description, trigger and priority take one-line values", n)
			}
			continue // part of an unknown key's nested value
		}
		g := keyLine.FindStringSubmatch(line)
		if g == nil {
			return m, nil, fmt.Errorf("front matter line %d: expected \"key: value\"", n)
		}
		key := g[1]
		if seen[key] {
			return m, nil, fmt.Errorf("front matter line %d: %s is given twice", n, key)
		}
		seen[key] = true
		switch key {
		case "description", "trigger", "priority", "trustLevel", "sensitivity":
			known = true
		default:
			known = false
			continue
		}
		v, err := scalar(g[2])
		if err != nil {
			return m, nil, fmt.Errorf("front matter line %d: %s %w", n, key, err)
		}
		switch key {
		case "description":
			if len(v) > maxDescription {
				return m, nil, fmt.Errorf("front matter line %d: description is longer than %d bytes", n, maxDescription)
			}
			m.description = v
		case "trigger":
			switch t := Trigger(v); t {
			case AlwaysOn, ModelDecision, Manual:
				m.trigger = t
			default:
				return m, nil, fmt.Errorf("front matter line %d: trigger %q is not one of always_on, model_decision, manual", n, clip(v))
			}
		case "trustLevel":
			if !slices.Contains(TrustLevels, v) {
				return m, nil, fmt.Errorf("front matter line %d: trustLevel %q is not one of %s", n, clip(v), strings.Join(TrustLevels, ", "))
			}
			m.trustLevel = v
		case "sensitivity":
			if !slices.Contains(Sensitivities, v) {
				return m, nil, fmt.Errorf("front matter line %d: sensitivity %q is not one of %s", n, clip(v), strings.Join(Sensitivities, ", "))
			}
			m.sensitivity = v
		case "priority":
			p, ok := parsePriority(v)
			if !ok {
				return m, nil, fmt.Errorf("front matter line %d: priority %q is not one of critical, high, normal, low", n, clip(v))
			}
			m.priority = p
		}
	}
}

// scalar reads a one-line YAML value: plain (a trailing " # comment" is
// dropped), 'single' or "double" quoted. Anything that would make it a
// list, map, alias, tag or block is refused.
func scalar(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	switch {
	case s == "":
		return "", fmt.Errorf("is empty")
	case s[0] == '"':
		if len(s) < 2 || s[len(s)-1] != '"' {
			return "", fmt.Errorf("has an unclosed quote")
		}
		v, err := strconv.Unquote(s)
		if err != nil {
			return "", fmt.Errorf("is not a valid double-quoted string")
		}
		return v, nil
	case s[0] == '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return "", fmt.Errorf("has an unclosed quote")
		}
		inner := s[1 : len(s)-1]
		if strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
			return "", fmt.Errorf("is not a valid single-quoted string")
		}
		return strings.ReplaceAll(inner, "''", "'"), nil
	case strings.ContainsRune("[]{}&*!|>%@`", rune(s[0])):
		return "", fmt.Errorf("must be a one-line string")
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if strings.Contains(s, ": ") {
		return "", fmt.Errorf("must be quoted when it holds \": \"")
	}
	return s, nil
}

// cutLine returns the first line of b (without its \n or \r\n), the rest,
// and whether a newline ended the line.
func cutLine(b []byte) (string, []byte, bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return strings.TrimSuffix(string(b), "\r"), nil, false
	}
	return strings.TrimSuffix(string(b[:i]), "\r"), b[i+1:], true
}

// clip keeps an echoed value short.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	for i := 40; i > 0; i-- {
		if i < len(s) && (s[i]&0xC0) != 0x80 {
			return s[:i] + "…"
		}
	}
	return ""
}
