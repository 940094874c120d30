package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/agentero/agentero/backend/context/grant"
)

// runPlan is `agentero plan DIR --request FILE [--runtime-id ID] [--json]`:
// the ContextPlan of a request and its prompt; with a runtime id, an mcp
// plan's grant is written.
func runPlan(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	reqFile := fs.String("request", "", "ContextRequest JSON file")
	runtimeID := fs.String("runtime-id", "", "write the grant for this runtime id")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	if *reqFile == "" {
		return usageError{"--request FILE is required"}
	}
	if *runtimeID != "" && !grant.ValidRuntimeID(*runtimeID) {
		return usageError{"--runtime-id may hold only letters, digits, '.', '_' and '-'"}
	}
	req, err := readRequest(*reqFile)
	if err != nil {
		return err
	}
	ws, err := env.openSynced(ctx, pos[0])
	if err != nil {
		return err
	}
	defer ws.Close()
	out, err := ws.Plan(ctx, req, *runtimeID)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, out)
	}
	fmt.Fprintf(env.Stdout, "mode %s, fingerprint %s\n", out.Mode, out.Fingerprint)
	for _, s := range out.Allowed {
		fmt.Fprintf(env.Stdout, "may read %s %s\n", s.Kind, s.Ref)
	}
	for _, r := range out.Refused {
		fmt.Fprintf(env.Stdout, "refused %s %s: %s\n", r.Kind, r.Path, r.Reason)
	}
	if out.GrantPath != "" {
		fmt.Fprintf(env.Stdout, "grant written to %s\n", out.GrantPath)
	}
	fmt.Fprintf(env.Stdout, "\n%s", out.Prompt)
	return nil
}
