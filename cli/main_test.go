package cli_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/cli"
)

// binary is the real agentero program: the built-in agent and the
// agentero-context MCP server run from it, as they do from the app.
var binary string

func TestMain(m *testing.M) {
	pdf.ServeWorkerIfRequested()
	dir, err := os.MkdirTemp("", "agentero-cli-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "agentero")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", binary, "..")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("build agentero: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is a command's environment in a test: the user's configuration in
// a folder of the test's own, the program the built binary.
func env(t *testing.T) cli.Env {
	t.Helper()
	return cli.Env{Workspace: workspace.Options{Config: workspace.NewConfig(t.TempDir(), binary), CacheDir: t.TempDir()}}
}

// run runs a command in-process and returns what it printed and its exit
// status.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runIn(t, env(t), args...)
}

func runIn(t *testing.T, e cli.Env, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, errOut bytes.Buffer
	e.Stdout, e.Stderr = &o, &errOut
	code = cli.Run(context.Background(), args, e)
	return o.String(), errOut.String(), code
}
