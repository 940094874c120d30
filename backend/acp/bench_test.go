package acp_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
)

// firstChunk runs one turn and returns the time to its first streamed
// message chunk and to its completion.
func firstChunk(b *testing.B, h *acp.Host, conv string, req plan.Request) (time.Duration, time.Duration) {
	start := time.Now()
	var first time.Duration
	emit := func(name string, payload any) {
		if name == events.AgentChunk && first == 0 {
			first = time.Since(start)
		}
	}
	if _, err := h.Turn(context.Background(), acp.TurnRequest{ConversationID: conv, Request: req, Question: "What is a timestamp server?"}, emit); err != nil {
		b.Fatal(err)
	}
	return first, time.Since(start)
}

// BenchmarkTurn measures, with the built-in agent: a whole mcp turn on a
// running agent (plan, grant, session/new, MCP server spawn, search,
// completion); a prompt-only turn on a cold host (agent spawn and
// initialize included) against one served from the warm pool.
func BenchmarkTurn(b *testing.B) {
	root, db := benchVault(b)
	cfg := func() *agentconf.Agents {
		return &agentconf.Agents{Default: agentconf.BuiltinName, List: []agentconf.Agent{agentconf.Builtin(binary)}}
	}
	var mcpTurn, coldFirst, warmFirst time.Duration
	for i := 0; i < b.N; i++ {
		h := acp.NewHost(root, binary, db, cfg(), acp.HostOptions{CacheDir: b.TempDir(), PoolSize: -1})
		coldFirst1, _ := firstChunk(b, h, fmt.Sprintf("cold-%d", i), plan.Request{Surface: "quickChat"})
		coldFirst += coldFirst1
		_, total := firstChunk(b, h, fmt.Sprintf("mcp-%d", i), plan.Request{Surface: "sidebar", CurrentPaper: "papers/bitcoin"})
		mcpTurn += total
		h.Close()

		w := acp.NewHost(root, binary, db, cfg(), acp.HostOptions{CacheDir: b.TempDir(), PoolSize: 1})
		w.Warm(agentconf.BuiltinName)
		waitWarm(b, w)
		wf, _ := firstChunk(b, w, fmt.Sprintf("warm-%d", i), plan.Request{Surface: "quickChat"})
		warmFirst += wf
		w.Close()
	}
	n := time.Duration(b.N)
	b.ReportMetric(float64((mcpTurn/n).Microseconds())/1000, "ms/mcp-turn")
	b.ReportMetric(float64((coldFirst/n).Microseconds())/1000, "ms-first-chunk-cold")
	b.ReportMetric(float64((warmFirst/n).Microseconds())/1000, "ms-first-chunk-warm")
	fmt.Printf("turn with the built-in agent: mcp turn %v | first chunk: cold %v, warm pool %v\n", mcpTurn/n, coldFirst/n, warmFirst/n)
}

func benchVault(b *testing.B) (string, *index.DB) {
	return vaultWithTB(b, "bitcoin.pdf")
}

// waitWarm waits until the pool holds a session (a turn would then be warm).
func waitWarm(b *testing.B, h *acp.Host) {
	deadline := time.Now().Add(20 * time.Second)
	for !h.PoolReady(agentconf.BuiltinName) {
		if time.Now().After(deadline) {
			b.Fatal("the warm pool never filled")
		}
		time.Sleep(10 * time.Millisecond) // polling another goroutine's work: nothing to wait on
	}
}
