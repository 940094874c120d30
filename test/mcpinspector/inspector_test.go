// Package mcpinspector drives the agentero-context MCP server with an
// independent client, the official MCP inspector in CLI mode
// (@modelcontextprotocol/inspector-cli, installed by `npm ci` here).
package mcpinspector

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/internal/corpustest"
)

const corpusDir = "../../../shared/corpus"

// TestInspector lists the tools and calls each of them through the
// inspector, on a vault of two corpus papers and a notes folder. The binary
// is AGENTERO_BIN when set (make test builds it), else built here.
func TestInspector(t *testing.T) {
	cli, err := filepath.Abs(filepath.Join("node_modules", "@modelcontextprotocol", "inspector-cli", "build", "cli.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cli); err != nil {
		corpustest.Unavailable(t, "the MCP inspector is not installed: run `npm ci` in test/mcpinspector")
	}
	if _, err := exec.LookPath("node"); err != nil {
		corpustest.Unavailable(t, "node is not installed (scripts/deps.sh installs it)")
	}
	bin := agentero(t)
	g := makeVault(t, bin)
	grantPath, err := grant.Write(g)
	if err != nil {
		t.Fatal(err)
	}

	// inspect runs the inspector once. It must run from a folder whose parent
	// holds a package.json: inspector-cli 1.0.3 looks for "../package.json"
	// relative to the working directory but imports it relative to itself.
	inspect := func(args ...string) map[string]any {
		t.Helper()
		full := append([]string{cli, "--cli", bin}, args...)
		full = append(full, "--", "--agentero-context-mcp", grantPath)
		cmd := exec.Command("node", full...)
		cmd.Dir = "node_modules"
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(os.TempDir(), "agentero-test-cache"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("inspector %v: %v\n%s%s", args, err, stdout.String(), stderr.String())
		}
		t.Logf("inspector %s: %v", strings.Join(args[:min(len(args), 4)], " "), time.Since(start).Round(time.Millisecond))
		var out map[string]any
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatalf("inspector %v printed no JSON: %v\n%s", args, err, stdout.String())
		}
		return out
	}
	// call runs tools/call and returns the tool's text and isError.
	call := func(tool string, toolArgs ...string) (string, bool) {
		t.Helper()
		args := []string{"--method", "tools/call", "--tool-name", tool}
		if len(toolArgs) > 0 {
			args = append(append(args, "--tool-arg"), toolArgs...)
		}
		out := inspect(args...)
		content, _ := out["content"].([]any)
		if len(content) != 1 {
			t.Fatalf("%s: content %v", tool, out)
		}
		text, _ := content[0].(map[string]any)["text"].(string)
		isErr, _ := out["isError"].(bool)
		return text, isErr
	}

	list := inspect("--method", "tools/list")
	var names []string
	for _, tool := range list["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	if strings.Join(names, ",") != "context_read,context_search,paper_relations" {
		t.Errorf("tools/list: %v", names)
	}

	text, isErr := call("context_search", "query=leader election")
	var search struct {
		Cards []struct{ Ref, CitationURI string }
	}
	if err := json.Unmarshal([]byte(text), &search); isErr || err != nil || len(search.Cards) == 0 ||
		search.Cards[0].Ref != "papers/in-search-of-an-understandable-consensus-algorithm" {
		t.Errorf("context_search: %v %.300s", err, text)
	}

	text, isErr = call("context_read", "ref=papers/paxos-made-simple/paxos-made-simple.pdf#page=3")
	var page struct {
		Page        int
		CitationURI string
	}
	if err := json.Unmarshal([]byte(text), &page); isErr || err != nil || page.Page != 3 ||
		page.CitationURI != "papers/paxos-made-simple/paxos-made-simple.pdf#page=3" {
		t.Errorf("context_read page: %v %.300s", err, text)
	}

	// A page as an image: an image block (PNG, base64) before its line of
	// text.
	img := inspect("--method", "tools/call", "--tool-name", "context_read",
		"--tool-arg", "ref=papers/paxos-made-simple/paxos-made-simple.pdf#page=5", "mode=image")
	if blocks, _ := img["content"].([]any); len(blocks) != 2 {
		t.Errorf("context_read image: content %.300v", img)
	} else {
		first, _ := blocks[0].(map[string]any)
		data, _ := base64.StdEncoding.DecodeString(fmt.Sprint(first["data"]))
		if first["type"] != "image" || first["mimeType"] != "image/png" || !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("context_read image: first block type %v, %v, data %.16q", first["type"], first["mimeType"], data)
		}
		if second, _ := blocks[1].(map[string]any); second["type"] != "text" || !strings.Contains(fmt.Sprint(second["text"]), `"page":5`) {
			t.Errorf("context_read image: second block %.300v", second)
		}
	}

	text, isErr = call("context_read", "ref=notes/consensus/../../../etc/passwd")
	if !isErr || text != grant.ErrRefused.Error() {
		t.Errorf("traversal: isError %v, %q", isErr, text)
	}

	text, isErr = call("paper_relations", "ref=papers/paxos-made-simple", "kind=citedBy")
	if isErr || !strings.Contains(text, `"paperPath":"papers/in-search-of-an-understandable-consensus-algorithm"`) {
		t.Errorf("paper_relations: %.300s", text)
	}

	usage, err := os.ReadFile(filepath.Join(filepath.Dir(grantPath), "usage.jsonl"))
	if err != nil || !bytes.Contains(usage, []byte(`"citationUri":"papers/paxos-made-simple/paxos-made-simple.pdf#page=3"`)) {
		t.Errorf("usage.jsonl: %v\n%s", err, usage)
	}
}

func agentero(t *testing.T) string {
	if bin := os.Getenv("AGENTERO_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "agentero")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", bin, ".")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build agentero: %v\n%s", err, out)
	}
	return bin
}

// makeVault indexes two corpus papers and a notes folder, and returns the
// grant of a turn that may read them.
func makeVault(t *testing.T, bin string) grant.Grant {
	root := t.TempDir()
	for _, stem := range []string{"in-search-of-an-understandable-consensus-algorithm", "paxos-made-simple"} {
		data, err := os.ReadFile(filepath.Join(corpusDir, stem+".pdf"))
		if err != nil {
			corpustest.Unavailable(t, "corpus not available (../shared/corpus beside the repository): %v", err)
		}
		dir := filepath.Join(root, "papers", stem)
		os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(filepath.Join(dir, stem+".pdf"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(root, "notes", "consensus"), 0o755)
	os.WriteFile(filepath.Join(root, "notes", "consensus", "raft.md"), []byte("Leader election uses randomized timeouts.\n"), 0o644)
	cmd := exec.Command(bin, "index", root)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(os.TempDir(), "agentero-test-cache"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("agentero index: %v\n%s", err, out)
	}
	return grant.Grant{Version: grant.Version, Vault: root, RuntimeID: "inspector", CreatedAt: time.Now().UTC(),
		Mode: grant.ModeMCP, Fingerprint: "sha256:inspector", Budget: grant.DefaultBudget(),
		Tools: []string{"context_search", "context_read", "paper_relations"},
		Allowed: []grant.Source{
			{Kind: grant.KindPaper, Ref: "papers/in-search-of-an-understandable-consensus-algorithm"},
			{Kind: grant.KindPaper, Ref: "papers/paxos-made-simple"},
			{Kind: grant.KindDirectory, Ref: "notes/consensus"},
		}}
}
