package mcp_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/pdf"
)

// BenchmarkVaultHTTPvsStdio times the whole-vault server's search and read
// (a page) on the synthetic 10,000-paper index (see synthetic10k), the
// same calls over streamable HTTP (`agentero mcp ROOT --http`, with the
// bearer token) and over stdio (`agentero mcp ROOT`), both the real binary
// driven by the official Go client; p50 and p95 printed side by side.
func BenchmarkVaultHTTPvsStdio(b *testing.B) {
	root := filepath.Join(os.TempDir(), fmt.Sprintf("agentero-bench-10k-v%d", pdf.ExtractorVersion))
	if dir := os.Getenv("AGENTERO_BENCH_10K"); dir != "" {
		root = dir
	}
	if _, err := os.Stat(filepath.Join(root, ".agentero", "done")); err != nil {
		b.Skipf("no synthetic 10k index at %s: run go test -tags sqlite_fts5 -run '^$' -bench SearchLatency ./backend/index/ first", root)
	}
	needVault(b) // builds the binary

	cmd := exec.Command(binary, "mcp", root)
	cmd.Env = testEnv()
	ctx := context.Background()
	stdio, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer stdio.Close()
	// startHTTPVault serves the test vault; this one serves the 10k index.
	h := startHTTPVaultAt(b, root)
	client := &http.Client{Transport: bearer{h.token, &http.Transport{MaxIdleConnsPerHost: 4}}}
	overHTTP, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: h.url, HTTPClient: client, DisableStandaloneSSE: true}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer overHTTP.Close()

	queries := []string{"consensus", "leader election", "byzantine fault tolerance", "attention",
		"transformer language model", "covariance matrix estimator", "proof of work", "quantum",
		"\"log replication\"", "regression", "the", "probabilistic counting", "lock service", "zookeeper",
		"flash attention memory", "heteroskedasticity", "sandwich", "paxos", "state machine replication", "scaling laws"}
	type call struct {
		tool string
		args map[string]any
	}
	var searches, reads []call
	for _, q := range queries {
		searches = append(searches, call{"search", map[string]any{"query": q}})
	}
	for i := range 20 {
		n := i * 497 % 10000
		reads = append(reads, call{"read", map[string]any{"ref": fmt.Sprintf("papers/%02d/paper-%05d", n%100, n), "mode": "page", "page": 1}})
	}
	time1 := func(cs *sdk.ClientSession, c call) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
		d := time.Since(start)
		if err != nil || res.IsError {
			b.Fatalf("%s %v: %v %v", c.tool, c.args, err, res)
		}
		return d
	}
	pct := func(ds []time.Duration) (time.Duration, time.Duration) {
		slices.Sort(ds)
		return ds[len(ds)/2].Round(10 * time.Microsecond), ds[len(ds)*95/100].Round(10 * time.Microsecond)
	}
	for i := 0; i < b.N; i++ {
		for _, set := range []struct {
			name, key string
			calls     []call
		}{{"search", "search", searches}, {"read (a page)", "read", reads}} {
			var overStdio, overNet []time.Duration
			// Interleaved, so that both see the same cache and load.
			for round := 0; round < 5; round++ {
				for _, c := range set.calls {
					overStdio = append(overStdio, time1(stdio, c))
					overNet = append(overNet, time1(overHTTP, c))
				}
			}
			s50, s95 := pct(overStdio)
			h50, h95 := pct(overNet)
			b.ReportMetric(float64(h95.Microseconds())/1000, set.key+"-http-p95-ms")
			b.ReportMetric(float64(s95.Microseconds())/1000, set.key+"-stdio-p95-ms")
			goal := ""
			if set.key == "search" {
				goal = fmt.Sprintf(" (goal HTTP p95 < 15ms: %s)", meets(h95 < 15*time.Millisecond))
			}
			fmt.Printf("agentero mcp, %s in 10,000 papers (%d calls each): HTTP p50 %v p95 %v%s | stdio p50 %v p95 %v\n",
				set.name, len(overNet), h50, h95, goal, s50, s95)
		}
	}
}

// startHTTPVaultAt is startHTTPVault on another vault.
func startHTTPVaultAt(b *testing.B, root string) *httpVault {
	saved := vaultDir
	vaultDir = root
	defer func() { vaultDir = saved }()
	return startHTTPVault(b)
}
