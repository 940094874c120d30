package main

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// tarballName is the tarball's file name for version.
func tarballName(version string) string {
	return fmt.Sprintf("agentero-%s-linux-x86_64.tar.gz", version)
}

// installScript installs the unpacked tarball under a prefix (default
// ~/.local), registers the desktop entry and the agentero:// scheme, and
// with --uninstall removes exactly what it installed.
const installScript = `#!/bin/sh
# Installs Agentero from this folder under PREFIX (default: ~/.local):
# PREFIX/lib/agentero, PREFIX/bin/agentero, the desktop entry (with the
# agentero:// link handler) and the icons. ./install.sh --uninstall removes them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${PREFIX:-$HOME/.local}
list="$prefix/lib/agentero/installed-files"
if [ "${1:-}" = "--uninstall" ]; then
  [ -f "$list" ] || { echo "Agentero is not installed under $prefix" >&2; exit 1; }
  while IFS= read -r f; do rm -f "$prefix/$f"; done < "$list"
  rm -f "$list"
  rmdir "$prefix/lib/agentero" 2>/dev/null || true
  rmdir "$prefix/share/doc/agentero/pdfium/licenses" "$prefix/share/doc/agentero/pdfium" "$prefix/share/doc/agentero" 2>/dev/null || true
  command -v update-desktop-database >/dev/null && update-desktop-database -q "$prefix/share/applications" || true
  echo "Agentero removed from $prefix"
  exit 0
fi
cd "$here/usr"
find . -type f -o -type l | sed 's|^\./||' > "$here/.files"
while IFS= read -r f; do
  mkdir -p "$prefix/$(dirname "$f")"
  rm -f "$prefix/$f"
  cp -P "$f" "$prefix/$f"
done < "$here/.files"
sed -i "s|^Exec=agentero |Exec=$prefix/bin/agentero |" "$prefix/share/applications/agentero.desktop"
mv "$here/.files" "$list"
echo lib/agentero/installed-files >> "$list"
command -v update-desktop-database >/dev/null && update-desktop-database -q "$prefix/share/applications" || true
command -v xdg-mime >/dev/null && xdg-mime default agentero.desktop x-scheme-handler/agentero || true
echo "Agentero installed: $prefix/bin/agentero"
`

// WriteTarball writes a self-contained tarball of tree into dir: one
// folder, agentero-VERSION/, holding usr/ as the .deb lays it out and
// install.sh. Run usr/bin/agentero in place or install it.
func WriteTarball(tree []File, version, dir string) (string, error) {
	p := filepath.Join(dir, tarballName(version))
	tmp := p + ".tmp"
	out, err := os.Create(tmp)
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	zw := gzip.NewWriter(out)
	tw := tar.NewWriter(zw)
	top := "agentero-" + version + "/"
	mtime := time.Now().UTC().Truncate(time.Second)
	dirs := map[string]bool{}
	mkdirs := func(name string) error {
		var parts []string
		for d := filepath.Dir(name); d != "." && d != "/"; d = filepath.Dir(d) {
			parts = append([]string{d}, parts...)
		}
		for _, d := range parts {
			if dirs[d] {
				continue
			}
			dirs[d] = true
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: top + d + "/", Mode: 0o755, ModTime: mtime}); err != nil {
				return err
			}
		}
		return nil
	}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: top, Mode: 0o755, ModTime: mtime}); err != nil {
		return "", err
	}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: top + "install.sh", Mode: 0o755, Size: int64(len(installScript)), ModTime: mtime}); err != nil {
		return "", err
	}
	if _, err := io.WriteString(tw, installScript); err != nil {
		return "", err
	}
	for _, f := range tree {
		name := strings.TrimPrefix(f.Dst, "/")
		if err := mkdirs(name); err != nil {
			return "", err
		}
		if f.Link != "" {
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: top + name, Linkname: f.Link, Mode: 0o777, ModTime: mtime}); err != nil {
				return "", err
			}
			continue
		}
		if err := addFile(tw, top+name, f, mtime); err != nil {
			return "", err
		}
	}
	if err := tw.Close(); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	return p, os.Rename(tmp, p)
}

func addFile(tw *tar.Writer, name string, f File, mtime time.Time) error {
	in, err := os.Open(f.Src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: int64(f.Mode), Size: st.Size(), ModTime: mtime}); err != nil {
		return err
	}
	_, err = io.Copy(tw, in)
	return err
}
