package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/vault"
	"github.com/agentero/agentero/backend/workspace"
)

// runCheck is `agentero check DIR FILE.md [--json]`: the claim check of
// every citation of a Markdown file to the vault's pages (SPEC §6, §12).
// It reports, so it exits 0 whatever the verdicts; a file or a vault it
// cannot read is a failure.
func runCheck(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseArgs(fs, args, 2)
	if err != nil {
		return err
	}
	md, err := readMarkdown(pos[1])
	if err != nil {
		return err
	}
	// A folder that is not a vault is said so, and left as it is: opening
	// it would make it one.
	if st, err := os.Stat(pos[0]); err == nil && st.IsDir() {
		if _, err := workspace.InspectFolder(pos[0]); errors.Is(err, workspace.ErrNotVault) {
			return err
		}
	}
	ws, err := env.openSynced(ctx, pos[0])
	if err != nil {
		return err
	}
	defer ws.Close()
	checks, err := ws.CheckClaims(ctx, md)
	if err != nil {
		return err
	}
	summary := citation.Summarize(checks)
	if *asJSON {
		return printJSON(env.Stdout, map[string]any{"citations": checks, "summary": summary})
	}
	if len(checks) == 0 {
		fmt.Fprintln(env.Stdout, "no citations of the vault")
		return nil
	}
	for _, c := range checks {
		page := "whole"
		if c.Page > 0 {
			page = fmt.Sprintf("p. %d", c.Page)
		}
		fmt.Fprintf(env.Stdout, "line %d\t%s\t%s\t%s\n", c.Line, c.Verdict, page, c.Why)
	}
	var parts []string
	for _, v := range citation.Verdicts {
		if n := summary.Verdicts[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	fmt.Fprintf(env.Stdout, "%d citations: %s\n", summary.Citations, strings.Join(parts, ", "))
	return nil
}

// readMarkdown reads the Markdown file the user named: a regular file (a
// FIFO or a device is refused before it can block), at most the size of
// a vault's text file, UTF-8 text.
func readMarkdown(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("there is no file %s", path)
	case err != nil:
		return "", fmt.Errorf("%s cannot be read: %v", path, unwrapPathError(err))
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return "", fmt.Errorf("%s cannot be read: %v", path, unwrapPathError(err))
	case st.IsDir():
		return "", fmt.Errorf("%s is a folder, not a Markdown file", path)
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file (a FIFO, socket or device), so it is not read", path)
	case st.Size() > vault.MaxTextFileSize:
		return "", fmt.Errorf("%s is larger than %d MB, the largest text file Agentero reads", path, vault.MaxTextFileSize>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, vault.MaxTextFileSize+1))
	switch {
	case err != nil:
		return "", fmt.Errorf("%s cannot be read: %v", path, unwrapPathError(err))
	case len(data) > vault.MaxTextFileSize:
		return "", fmt.Errorf("%s is larger than %d MB, the largest text file Agentero reads", path, vault.MaxTextFileSize>>20)
	case !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0:
		return "", fmt.Errorf("%s is not UTF-8 text, so it cannot be a Markdown file", path)
	}
	return string(data), nil
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
