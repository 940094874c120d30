package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/goreleaser/nfpm/v2"
	"github.com/goreleaser/nfpm/v2/deb"
	"github.com/goreleaser/nfpm/v2/files"
)

// Depends are the runtime libraries the binary and libpdfium.so link
// against (objdump -p … | grep NEEDED, then dpkg -S), as Debian 12 names
// their packages. test/window's package test checks that every library
// the installed files need belongs to one of them.
var Depends = []string{
	"libc6 (>= 2.34)",
	"libgcc-s1",
	"libglib2.0-0",
	"libgdk-pixbuf-2.0-0",
	"libgtk-3-0",
	"libjavascriptcoregtk-4.1-0",
	"libsoup-3.0-0",
	"libwebkit2gtk-4.1-0",
}

// debName is the .deb's file name for version.
func debName(version string) string { return fmt.Sprintf("agentero_%s_amd64.deb", version) }

// WriteDeb writes the Debian package of files into dir. It has no
// maintainer scripts: the desktop database and icon cache are refreshed by
// the triggers desktop-file-utils and gtk-update-icon-cache install.
func WriteDeb(tree []File, version, dir string) (string, error) {
	mtime := time.Now().UTC().Truncate(time.Second)
	if epoch := os.Getenv("SOURCE_DATE_EPOCH"); epoch != "" {
		var s int64
		if _, err := fmt.Sscan(epoch, &s); err == nil {
			mtime = time.Unix(s, 0).UTC()
		}
	}
	var contents files.Contents
	for _, f := range tree {
		c := &files.Content{Destination: f.Dst, FileInfo: &files.ContentFileInfo{Owner: "root", Group: "root", MTime: mtime}}
		if f.Link != "" {
			c.Type = files.TypeSymlink
			c.Source = f.Link
		} else {
			c.Source = f.Src
			c.FileInfo.Mode = f.Mode
		}
		contents = append(contents, c)
	}
	info := nfpm.WithDefaults(&nfpm.Info{
		Name:          "agentero",
		Arch:          "amd64",
		Platform:      "linux",
		Version:       version,
		VersionSchema: "none",
		Section:       "science",
		Priority:      "optional",
		Maintainer:    "Agentero developers <agentero@localhost>",
		Description: "Ask questions about your papers, with sources that open the right page\n" +
			"Agentero opens a local vault of papers, indexes it, and lets an AI agent\n" +
			"answer beside the open paper, reading only what each turn was granted.",
		Homepage: "https://github.com/agentero/agentero",
		License:  "see /usr/share/doc/agentero/copyright",
		MTime:    mtime,
		Overridables: nfpm.Overridables{
			Depends:    Depends,
			Recommends: []string{"xdg-utils", "bubblewrap"}, // bubblewrap: agents run confined (Landlock without it)
			Contents:   contents,
		},
	})
	if err := nfpm.PrepareForPackager(info, "deb"); err != nil {
		return "", fmt.Errorf("package contents: %w", err)
	}
	p := filepath.Join(dir, debName(version))
	tmp := p + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return "", err
	}
	if err := deb.Default.Package(info, f); err != nil {
		f.Close()
		os.Remove(tmp)
		return "", fmt.Errorf("the .deb: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return p, os.Rename(tmp, p)
}
