package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/plan"
)

// QuickChat is the request of a question with nothing pointed at: a Quick
// Chat turn that may read nothing.
func QuickChat() plan.Request {
	return plan.Request{Surface: plan.SurfaceQuickChat, Selections: []plan.Selection{}, Mentions: []plan.Mention{}}
}

// DecodeRequest reads one ContextRequest (JSON) strictly: an unknown field
// or trailing data is refused rather than silently dropped, since a
// misspelt mention would otherwise quietly grant less.
func DecodeRequest(r io.Reader) (plan.Request, error) {
	req := QuickChat()
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return plan.Request{}, invalid(fmt.Errorf("not a ContextRequest: %w", err))
	}
	if dec.More() {
		return plan.Request{}, invalid(errors.New("not a ContextRequest: more than one JSON value"))
	}
	if req.Selections == nil {
		req.Selections = []plan.Selection{}
	}
	if req.Mentions == nil {
		req.Mentions = []plan.Mention{}
	}
	return req, nil
}

// PreviewPlan shows what a turn with this request could read, before it is
// sent. It writes nothing.
func (w *Workspace) PreviewPlan(ctx context.Context, req plan.Request) (*plan.Plan, error) {
	return call(ctx, w, func(ctx context.Context) (*plan.Plan, error) {
		return w.host.Resolver().Resolve(ctx, req)
	})
}

// PlanResult is a plan with the prompt it renders to and, when its grant
// was written, the grant's path.
type PlanResult struct {
	*plan.Plan
	Prompt    string `json:"prompt"`
	GrantPath string `json:"grantPath,omitempty"`
}

// Plan resolves a request and renders its prompt; with a runtime id, an mcp
// plan's grant is written for it (what a turn of that conversation would
// get).
func (w *Workspace) Plan(ctx context.Context, req plan.Request, runtimeID string) (*PlanResult, error) {
	if runtimeID != "" && !grant.ValidRuntimeID(runtimeID) {
		return nil, invalid(errors.New("a runtime id may hold only letters, digits, '.', '_' and '-'"))
	}
	return call(ctx, w, func(ctx context.Context) (*PlanResult, error) {
		p, err := w.host.Resolver().Resolve(ctx, req)
		if err != nil {
			return nil, err
		}
		out := &PlanResult{Plan: p, Prompt: p.Render()}
		if runtimeID != "" && p.Mode == grant.ModeMCP {
			if out.GrantPath, err = w.host.WriteGrant(p, runtimeID); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}
