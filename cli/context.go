package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/agentero/agentero/backend/context/snapshot"
	"github.com/agentero/agentero/backend/workspace"
)

// runContext is `agentero context DIR [--json]`: the frozen snapshot a new
// session of the vault would get (SPEC §12): guidance file, expanded
// imports, always-on manifest, model-decision index, byte counts and
// issues. It only reads.
func runContext(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("context", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	s, err := workspace.Snapshot(pos[0])
	if err != nil {
		return err
	}
	prompt := s.Render()
	if *asJSON {
		return printJSON(env.Stdout, struct {
			*snapshot.Snapshot
			Prompt string `json:"prompt"`
		}{s, prompt})
	}
	out := env.Stdout
	if s.Guidance == nil {
		fmt.Fprintf(out, "guidance: none (looked for %v)\n", snapshot.Candidates)
	} else {
		fmt.Fprintf(out, "guidance: %s (%d bytes expanded)\n", s.Guidance.Path, s.Guidance.Bytes)
	}
	for _, im := range s.Imports {
		if im.Problem != "" {
			fmt.Fprintf(out, "  import %s from %s line %d: not imported (%s)\n", im.Path, im.From, im.Line, im.Problem)
		} else {
			fmt.Fprintf(out, "  import %s from %s line %d (%d bytes)\n", im.Path, im.From, im.Line, im.Bytes)
		}
	}
	fmt.Fprintf(out, "always-on manifest: %d documents, %d of %d bytes\n", len(s.Manifest.Entries), s.Manifest.Bytes, s.Manifest.Budget)
	for _, e := range s.Manifest.Entries {
		fmt.Fprintf(out, "  %s  %s, %s (%d of %d bytes, by %s)\n", e.ID, e.Priority, e.Load, e.Shown, e.Bytes, e.Reason)
	}
	fmt.Fprintf(out, "model-decision index: %d documents, %d bytes\n", len(s.Index.Entries), s.Index.Bytes)
	for _, e := range s.Index.Entries {
		fmt.Fprintf(out, "  %s  %s\n", e.ID, e.Description)
	}
	for _, is := range s.Issues {
		fmt.Fprintf(out, "issue: %s: %s\n", is.Path, is.Problem)
	}
	fmt.Fprintf(out, "total %d bytes, %s\n", s.Bytes.Total, s.Hash)
	if prompt != "" {
		fmt.Fprintf(out, "\n%s", prompt)
	}
	return nil
}
