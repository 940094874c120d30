package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentero/agentero/backend/context/snapshot"
)

// runContext prints the frozen snapshot a new session of the vault would
// get (SPEC §12): guidance file, expanded imports, always-on manifest,
// model-decision index, byte counts and issues. It only reads.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("context", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	root, err := filepath.Abs(pos[0])
	if err != nil {
		return err
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return fmt.Errorf("%s is not a vault folder", pos[0])
	}
	s, err := snapshot.Build(root, snapshot.Options{})
	if err != nil {
		return err
	}
	prompt := s.Render()
	if *asJSON {
		return printJSON(stdout, struct {
			*snapshot.Snapshot
			Prompt string `json:"prompt"`
		}{s, prompt})
	}
	if s.Guidance == nil {
		fmt.Fprintf(stdout, "guidance: none (looked for %v)\n", snapshot.Candidates)
	} else {
		fmt.Fprintf(stdout, "guidance: %s (%d bytes expanded)\n", s.Guidance.Path, s.Guidance.Bytes)
	}
	for _, im := range s.Imports {
		if im.Problem != "" {
			fmt.Fprintf(stdout, "  import %s from %s line %d: not imported (%s)\n", im.Path, im.From, im.Line, im.Problem)
		} else {
			fmt.Fprintf(stdout, "  import %s from %s line %d (%d bytes)\n", im.Path, im.From, im.Line, im.Bytes)
		}
	}
	fmt.Fprintf(stdout, "always-on manifest: %d documents, %d of %d bytes\n", len(s.Manifest.Entries), s.Manifest.Bytes, s.Manifest.Budget)
	for _, e := range s.Manifest.Entries {
		fmt.Fprintf(stdout, "  %s  %s, %s (%d of %d bytes, by %s)\n", e.ID, e.Priority, e.Load, e.Shown, e.Bytes, e.Reason)
	}
	fmt.Fprintf(stdout, "model-decision index: %d documents, %d bytes\n", len(s.Index.Entries), s.Index.Bytes)
	for _, e := range s.Index.Entries {
		fmt.Fprintf(stdout, "  %s  %s\n", e.ID, e.Description)
	}
	for _, is := range s.Issues {
		fmt.Fprintf(stdout, "issue: %s: %s\n", is.Path, is.Problem)
	}
	fmt.Fprintf(stdout, "total %d bytes, %s\n", s.Bytes.Total, s.Hash)
	if prompt != "" {
		fmt.Fprintf(stdout, "\n%s", prompt)
	}
	return nil
}
