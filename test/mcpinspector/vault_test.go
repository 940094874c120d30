package mcpinspector

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentero/agentero/internal/corpustest"
)

// The whole-vault server (`agentero mcp VAULT`, SPEC §9) driven by two
// independent clients: the official MCP TypeScript SDK's client, over
// stdio and over streamable HTTP, and the MCP inspector CLI, over both
// too. Each lists the tools and runs every one of them.

// vaultCalls runs every tool: list_papers (a filter and paging), search,
// read (metadata, a page by citation URI, an excerpt, a note, a folder, the
// vault's top), relations, and a refused path.
var vaultCalls = []struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
}{
	{"list_papers", map[string]any{"limit": 1}},
	{"list_papers", map[string]any{"folder": "papers/paxos-made-simple"}},
	{"search", map[string]any{"query": "leader election"}},
	{"read", map[string]any{"ref": "papers/paxos-made-simple"}},
	{"read", map[string]any{"ref": "papers/paxos-made-simple/paxos-made-simple.pdf#page=3"}},
	{"read", map[string]any{"ref": "papers/paxos-made-simple", "mode": "excerpt", "quote": "The Synod algorithm"}},
	{"read", map[string]any{"ref": "notes/consensus/raft.md"}},
	{"read", map[string]any{"ref": "notes"}},
	{"read", map[string]any{"ref": "."}},
	{"relations", map[string]any{"ref": "papers/paxos-made-simple", "kind": "citedBy"}},
	{"read", map[string]any{"ref": ".agentero/index.sqlite"}},
}

type callResult struct {
	Tool    string
	IsError bool
	Text    string
}

// checkVaultResults checks what every client must get from vaultCalls.
// only names the calls that ran, when not all did.
func checkVaultResults(t *testing.T, who string, calls []callResult, only ...int) {
	t.Helper()
	if only == nil {
		for i := range vaultCalls {
			only = append(only, i)
		}
	}
	if len(calls) != len(only) {
		t.Fatalf("%s: %d results for %d calls", who, len(calls), len(only))
	}
	want := []string{
		`"total":2`,
		`"ref":"papers/paxos-made-simple"`,
		`"ref":"papers/in-search-of-an-understandable-consensus-algorithm"`,
		`"title":"Paxos Made Simple"`,
		`"citationUri":"papers/paxos-made-simple/paxos-made-simple.pdf#page=3"`,
		`quote=`,
		`Leader election uses randomized timeouts`,
		`"entries":["consensus/"]`,
		`"entries":["notes/","papers/"]`,
		`"paperPath":"papers/in-search-of-an-understandable-consensus-algorithm"`,
		`refused: that path is not readable`,
	}
	for j, c := range calls {
		i := only[j]
		refused := i == len(vaultCalls)-1
		if c.Tool != vaultCalls[i].Tool || c.IsError != refused || !strings.Contains(c.Text, want[i]) {
			t.Errorf("%s: %s %v: isError %v, %.300s; want %q", who, c.Tool, vaultCalls[i].Args, c.IsError, c.Text, want[i])
		}
	}
}

func tsClient(t *testing.T, args ...string) (tools []string, calls []callResult) {
	t.Helper()
	script, _ := filepath.Abs("vault-client.mjs")
	in, _ := json.Marshal(vaultCalls)
	cmd := exec.Command("node", append([]string{script}, args...)...)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(os.TempDir(), "agentero-test-cache"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("TypeScript client %s: %v\n%s%s", args[0], err, stdout.String(), stderr.String())
	}
	var out struct {
		Tools []struct{ Name string }
		Calls []callResult
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("TypeScript client printed no JSON: %v\n%s", err, stdout.String())
	}
	for _, tool := range out.Tools {
		tools = append(tools, tool.Name)
	}
	return tools, out.Calls
}

// startHTTP runs `agentero mcp VAULT --http 127.0.0.1:0` and returns its URL
// and token; the cleanup interrupts it.
func startHTTP(t *testing.T, bin, vault string) (url, token string) {
	t.Helper()
	tokenFile := filepath.Join(t.TempDir(), "token")
	cmd := exec.Command(bin, "mcp", vault, "--http", "127.0.0.1:0", "--token-file", tokenFile)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(os.TempDir(), "agentero-test-cache"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("agentero mcp --http: %v\n%s", err, stderr.String())
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Error("agentero mcp --http did not stop on SIGINT")
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	var first struct{ URL string }
	if err != nil || json.Unmarshal([]byte(line), &first) != nil {
		t.Fatalf("first line %q: %v\n%s", line, err, stderr.String())
	}
	data, _ := os.ReadFile(tokenFile)
	return first.URL, strings.TrimSpace(string(data))
}

func needNode(t *testing.T) string {
	cli, _ := filepath.Abs(filepath.Join("node_modules", "@modelcontextprotocol", "inspector-cli", "build", "cli.js"))
	for _, p := range []string{cli, filepath.Join("node_modules", "@modelcontextprotocol", "sdk", "package.json")} {
		if _, err := os.Stat(p); err != nil {
			corpustest.Unavailable(t, "the MCP clients are not installed: run `npm ci` in test/mcpinspector")
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		corpustest.Unavailable(t, "node is not installed (scripts/deps.sh installs it)")
	}
	return cli
}

const wantTools = "list_papers,read,relations,search"

// TestVaultTypeScriptClient: the official TypeScript client over stdio and
// over streamable HTTP; both get the same results.
func TestVaultTypeScriptClient(t *testing.T) {
	needNode(t)
	bin := agentero(t)
	g := makeVault(t, bin)
	tools, stdio := tsClient(t, "stdio", bin, g.Vault)
	if strings.Join(tools, ",") != wantTools {
		t.Errorf("stdio tools/list: %v", tools)
	}
	checkVaultResults(t, "TypeScript client over stdio", stdio)

	url, token := startHTTP(t, bin, g.Vault)
	tools, overHTTP := tsClient(t, "http", url, token)
	if strings.Join(tools, ",") != wantTools {
		t.Errorf("HTTP tools/list: %v", tools)
	}
	checkVaultResults(t, "TypeScript client over HTTP", overHTTP)
	for i := range stdio {
		if stdio[i] != overHTTP[i] {
			t.Errorf("call %d differs between stdio and HTTP:\n%.300s\n%.300s", i, stdio[i].Text, overHTTP[i].Text)
		}
	}
	// A wrong token is refused before any tool runs.
	script, _ := filepath.Abs("vault-client.mjs")
	cmd := exec.Command("node", script, "http", url, strings.Repeat("x", 43))
	cmd.Stdin = strings.NewReader("[]")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "401") {
		t.Errorf("a wrong token: %v\n%s", err, out)
	}
}

// TestVaultInspector: the MCP inspector CLI lists the tools and calls every
// one, over stdio and over streamable HTTP with the bearer header.
func TestVaultInspector(t *testing.T) {
	cli := needNode(t)
	bin := agentero(t)
	g := makeVault(t, bin)
	url, token := startHTTP(t, bin, g.Vault)
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			inspect := func(args ...string) map[string]any {
				t.Helper()
				var full []string
				if transport == "stdio" {
					full = append([]string{cli, "--cli", bin, "mcp", g.Vault}, args...)
				} else {
					full = append([]string{cli, "--cli", url, "--transport", "http", "--header", "Authorization: Bearer " + token}, args...)
				}
				cmd := exec.Command("node", full...)
				cmd.Dir = "node_modules" // see TestInspector
				cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(os.TempDir(), "agentero-test-cache"))
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("inspector %v: %v\n%s%s", args, err, stdout.String(), stderr.String())
				}
				var out map[string]any
				if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
					t.Fatalf("inspector %v printed no JSON: %v\n%s", args, err, stdout.String())
				}
				return out
			}
			list := inspect("--method", "tools/list")
			var names []string
			for _, tool := range list["tools"].([]any) {
				names = append(names, tool.(map[string]any)["name"].(string))
			}
			if strings.Join(names, ",") != wantTools {
				t.Errorf("tools/list: %v", names)
			}
			// Every tool once (each inspector run takes seconds): the
			// TypeScript client runs the whole script.
			var results []callResult
			var want []int
			for _, i := range []int{1, 2, 4, 9, 10} {
				c := vaultCalls[i]
				want = append(want, i)
				args := []string{"--method", "tools/call", "--tool-name", c.Tool}
				for k, v := range c.Args {
					s, ok := v.(string)
					if !ok {
						b, _ := json.Marshal(v)
						s = string(b)
					}
					args = append(args, "--tool-arg", k+"="+s)
				}
				out := inspect(args...)
				content, _ := out["content"].([]any)
				if len(content) != 1 {
					t.Fatalf("%s: content %v", c.Tool, out)
				}
				text, _ := content[0].(map[string]any)["text"].(string)
				isErr, _ := out["isError"].(bool)
				results = append(results, callResult{c.Tool, isErr, text})
			}
			checkVaultResults(t, "inspector over "+transport, results, want...)
		})
	}
}
