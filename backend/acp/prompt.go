package acp

import (
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/context/snapshot"
	"github.com/agentero/agentero/backend/conversation"
)

// PromptParts is the prompt a turn sends its session, in order: the
// conversation's frozen snapshot as written for the session (only when
// snap is not nil: a new or warm session), the turn's plan, the handover
// of the conversation so far (when not empty) and the question. It is the
// one place a prompt is put together; tests that run an agent the way the
// host does call it too.
func PromptParts(snap *snapshot.Snapshot, sess snapshot.Session, p *plan.Plan, handover, question string) []conversation.PromptPart {
	var parts []conversation.PromptPart
	if snap != nil {
		if text := snap.RenderFor(sess); text != "" {
			parts = append(parts, conversation.PromptPart{Kind: "snapshot", Text: text})
		}
	}
	parts = append(parts, conversation.PromptPart{Kind: "plan", Text: p.Render()})
	if handover != "" {
		parts = append(parts, conversation.PromptPart{Kind: "handover", Text: handover})
	}
	return append(parts, conversation.PromptPart{Kind: "question", Text: question})
}
