package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/vault"
)

// ExampleName is the folder the example vault is copied to, in the user's
// home: the shipped copy is read-only (an installed package) or part of a
// checkout, and a vault is written to (its .agentero/).
const ExampleName = "Agentero example vault"

// ExampleSource is the example vault shipped with the program exe, or ""
// when none is: share/agentero/examples/vault under the installed prefix
// (the .deb and the tarball put the binary in lib/agentero/), or the
// checkout's examples/vault for a binary built into build/bin/.
func ExampleSource(exe string) string {
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	dir := filepath.Dir(exe)
	for _, c := range []string{
		filepath.Join(dir, "..", "..", "share", "agentero", "examples", "vault"),
		filepath.Join(dir, "..", "..", "examples", "vault"),
	} {
		if st, err := os.Stat(filepath.Join(c, "papers")); err == nil && st.IsDir() {
			return filepath.Clean(c)
		}
	}
	return ""
}

// CopyExample makes dst a copy of the example vault src (its papers and
// notes; never a .agentero of the source) and returns dst. A dst that is a
// vault already (an earlier copy) is kept as it is, with what the user
// added to it; a dst that holds something else is refused.
func CopyExample(src, dst string) (string, error) {
	if src == "" {
		return "", notFound(errors.New("no example vault ships with this copy of Agentero"))
	}
	if applink.IsVault(dst) {
		return dst, nil
	}
	if _, err := os.Lstat(dst); err == nil {
		return "", invalid(fmt.Errorf("%s exists and is not a vault: move it away to get a fresh copy of the example (%w)", dst, ErrNotEmpty))
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), ".agentero-example-")
	if err != nil {
		return "", fmt.Errorf("copy the example vault: %w", err)
	}
	defer os.RemoveAll(tmp)
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.Name() == ".agentero" && d.IsDir() {
			return filepath.SkipDir
		}
		to := filepath.Join(tmp, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type().IsRegular():
			return copyFile(path, to)
		}
		return nil // links and the like are not part of the example
	})
	if err != nil {
		return "", fmt.Errorf("copy the example vault: %w", err)
	}
	if _, err := vault.StateFolder(tmp); err != nil {
		return "", fmt.Errorf("copy the example vault: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return "", fmt.Errorf("copy the example vault: %w", err)
	}
	return dst, nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
