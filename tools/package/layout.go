package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Sources are what the packages are made of.
type Sources struct {
	Root    string // the app's checkout
	Binary  string // the production binary
	PDFium  string // folder with libpdfium.so and its licences; "" = none
	Notices string // THIRD_PARTY_NOTICES
	Version string
}

// File is one entry of the installed tree: a file copied from Src, or a
// symbolic link to Link.
type File struct {
	Dst  string // absolute path once installed, e.g. /usr/lib/agentero/agentero
	Src  string
	Link string
	Mode os.FileMode
}

// Layout lists the installed tree (see the package comment). Every source
// must exist: a package missing its PDFium or notices is not made.
func (s Sources) Layout() ([]File, error) {
	linux := filepath.Join(s.Root, "build", "linux")
	files := []File{
		{Dst: "/usr/lib/agentero/agentero", Src: s.Binary, Mode: 0o755},
		{Dst: "/usr/bin/agentero", Link: "../lib/agentero/agentero"},
		{Dst: "/usr/share/applications/agentero.desktop", Src: filepath.Join(linux, "agentero.desktop"), Mode: 0o644},
		{Dst: "/usr/share/icons/hicolor/scalable/apps/agentero.svg", Src: filepath.Join(linux, "agentero.svg"), Mode: 0o644},
		{Dst: "/usr/share/icons/hicolor/512x512/apps/agentero.png", Src: filepath.Join(s.Root, "build", "appicon.png"), Mode: 0o644},
		{Dst: "/usr/share/doc/agentero/THIRD_PARTY_NOTICES", Src: s.Notices, Mode: 0o644},
		{Dst: "/usr/share/doc/agentero/copyright", Src: filepath.Join(linux, "copyright"), Mode: 0o644},
	}
	if s.PDFium != "" {
		files = append(files,
			File{Dst: "/usr/lib/agentero/libpdfium.so", Src: filepath.Join(s.PDFium, "libpdfium.so"), Mode: 0o644},
			File{Dst: "/usr/share/doc/agentero/pdfium/PDFIUM_VERSION", Src: filepath.Join(s.PDFium, "PDFIUM_VERSION"), Mode: 0o644},
			File{Dst: "/usr/share/doc/agentero/pdfium/THIRD_PARTY_NOTICES.md", Src: filepath.Join(s.PDFium, "THIRD_PARTY_NOTICES.md"), Mode: 0o644},
		)
		lic, err := os.ReadDir(filepath.Join(s.PDFium, "licenses"))
		if err != nil {
			return nil, fmt.Errorf("PDFium's licence files: %w", err)
		}
		for _, e := range lic {
			if e.Type().IsRegular() {
				files = append(files, File{Dst: "/usr/share/doc/agentero/pdfium/licenses/" + e.Name(),
					Src: filepath.Join(s.PDFium, "licenses", e.Name()), Mode: 0o644})
			}
		}
	}
	// The example vault, which the first screen copies into the user's
	// home and opens ("Open the example vault"); never its .agentero.
	example := filepath.Join(s.Root, "examples", "vault")
	err := filepath.WalkDir(example, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".agentero" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(example, path)
			files = append(files, File{Dst: "/usr/share/agentero/examples/vault/" + filepath.ToSlash(rel), Src: path, Mode: 0o644})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("the example vault: %w", err)
	}
	for _, f := range files {
		if f.Src == "" {
			continue
		}
		st, err := os.Stat(f.Src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Dst, err)
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: %s is not a regular file", f.Dst, f.Src)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Dst < files[j].Dst })
	return files, nil
}
