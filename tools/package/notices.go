package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// licenceFile matches the files a module or package keeps its licence in.
var licenceFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|unlicense)([._-].*)?$`)

// Notices is the THIRD_PARTY_NOTICES text: Go (its standard library is
// linked in), every Go module linked into the binary built with tags, and
// every npm package the frontend bundles (package-lock entries that are not
// dev-only), each with its licence name and text. A module or package whose
// licence text cannot be found is an error: the file would be incomplete.
func Notices(root, tags string) (string, error) {
	var b strings.Builder
	b.WriteString("Third-party software in Agentero\n")
	b.WriteString("================================\n\n")
	b.WriteString("The Agentero binary links the Go modules below and bundles the npm packages\n")
	b.WriteString("below in its user interface. PDFium's notices are in pdfium/ beside this file.\n\n")

	mods, err := goModules(root, tags)
	if err != nil {
		return "", err
	}
	npms, err := npmPackages(filepath.Join(root, "frontend"))
	if err != nil {
		return "", err
	}
	var missing []string
	for _, m := range append(mods, npms...) {
		if len(m.Texts) == 0 {
			missing = append(missing, m.Name)
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("no licence file found for: %s", strings.Join(missing, ", "))
	}
	b.WriteString("Go modules\n----------\n")
	for _, m := range mods {
		fmt.Fprintf(&b, "  %s %s\n", m.Name, m.Version)
	}
	b.WriteString("\nnpm packages (frontend)\n-----------------------\n")
	for _, m := range npms {
		fmt.Fprintf(&b, "  %s %s (%s)\n", m.Name, m.Version, m.License)
	}
	b.WriteString("\n")
	for _, m := range append(mods, npms...) {
		fmt.Fprintf(&b, "\n%s\n%s %s\n", strings.Repeat("=", 78), m.Name, m.Version)
		if m.License != "" {
			fmt.Fprintf(&b, "License: %s\n", m.License)
		}
		for _, t := range m.Texts {
			fmt.Fprintf(&b, "\n--- %s\n\n%s\n", t.Name, strings.TrimRight(t.Text, "\n"))
		}
	}
	return b.String(), nil
}

type component struct {
	Name, Version, License string
	Texts                  []licenceText
}

type licenceText struct{ Name, Text string }

// goModules lists the modules of the packages the binary links, plus Go.
func goModules(root, tags string) ([]component, error) {
	cmd := exec.Command("go", "list", "-deps", "-tags", tags,
		"-f", `{{with .Module}}{{if not .Main}}{{.Path}}	{{.Version}}	{{.Dir}}{{with .Replace}}	{{.Path}}	{{.Version}}	{{.Dir}}{{end}}{{end}}{{end}}`, ".")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	seen := map[string]bool{}
	var mods []component
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 3 || seen[f[0]] {
			continue
		}
		seen[f[0]] = true
		c := component{Name: f[0], Version: f[1]}
		dir := f[2]
		if len(f) >= 6 {
			c.Version = f[4] + " (replaces " + f[1] + ")"
			dir = f[5]
		}
		texts, err := licenceTexts(dir)
		if err != nil {
			return nil, err
		}
		c.Texts = texts
		mods = append(mods, c)
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Name < mods[j].Name })
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	gover, _ := exec.Command("go", "env", "GOVERSION").Output()
	texts, err := licenceTexts(strings.TrimSpace(string(goroot)))
	if err != nil {
		return nil, err
	}
	std := component{Name: "Go (standard library and runtime)", Version: strings.TrimSpace(string(gover)), Texts: texts}
	return append([]component{std}, mods...), nil
}

// npmPackages lists the packages the frontend bundles: its dependencies
// (not devDependencies, not optional ones such as pdf.js's canvas for
// Node) and theirs, resolved as npm installed them (package-lock.json),
// with the licence of each installed package.json and its licence files.
func npmPackages(frontend string) ([]component, error) {
	raw, err := os.ReadFile(filepath.Join(frontend, "package-lock.json"))
	if err != nil {
		return nil, err
	}
	type entry struct {
		Version      string            `json:"version"`
		License      any               `json:"license"`
		Dependencies map[string]string `json:"dependencies"`
	}
	var lock struct {
		Packages map[string]entry `json:"packages"`
	}
	if err := json.Unmarshal(raw, &lock); err != nil {
		return nil, fmt.Errorf("package-lock.json: %w", err)
	}
	// resolve finds name as Node does from the package at path.
	resolve := func(from, name string) (string, bool) {
		for dir := from; ; {
			p := name
			if dir != "" {
				p = dir + "/node_modules/" + name
			} else {
				p = "node_modules/" + name
			}
			if _, ok := lock.Packages[p]; ok {
				return p, true
			}
			if dir == "" {
				return "", false
			}
			if i := strings.LastIndex(dir, "/node_modules/"); i >= 0 {
				dir = dir[:i]
			} else {
				dir = ""
			}
		}
	}
	seen := map[string]bool{}
	queue := []string{""}
	var out []component
	for len(queue) > 0 {
		from := queue[0]
		queue = queue[1:]
		names := make([]string, 0, len(lock.Packages[from].Dependencies))
		for n := range lock.Packages[from].Dependencies {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			path, ok := resolve(from, name)
			if !ok {
				return nil, fmt.Errorf("package-lock.json does not resolve %s (needed by %q)", name, from)
			}
			if seen[path] {
				continue
			}
			seen[path] = true
			queue = append(queue, path)
			p := lock.Packages[path]
			dir := filepath.Join(frontend, filepath.FromSlash(path))
			c := component{Name: name, Version: p.Version, License: licenceName(p.License)}
			pj, err := os.ReadFile(filepath.Join(dir, "package.json"))
			if err != nil {
				return nil, fmt.Errorf("%s is not installed (npm ci in frontend/): %w", name, err)
			}
			var meta struct {
				License any `json:"license"`
			}
			if json.Unmarshal(pj, &meta) == nil && licenceName(meta.License) != "" {
				c.License = licenceName(meta.License)
			}
			texts, err := licenceTexts(dir)
			if err != nil {
				return nil, err
			}
			c.Texts = texts
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func licenceName(v any) string {
	switch l := v.(type) {
	case string:
		return l
	case map[string]any:
		if t, ok := l["type"].(string); ok {
			return t
		}
	}
	return ""
}

// licenceTexts reads the licence files at the top of dir.
func licenceTexts(dir string) ([]licenceText, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []licenceText
	for _, e := range entries {
		if !e.Type().IsRegular() || !licenceFile.MatchString(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, licenceText{Name: e.Name(), Text: string(b)})
	}
	return out, nil
}
