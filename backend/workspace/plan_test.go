package workspace_test

import (
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/google/go-cmp/cmp"
)

// A ContextRequest is decoded strictly, once, for every caller.
func TestDecodeRequest(t *testing.T) {
	got, err := workspace.DecodeRequest(strings.NewReader(`{"surface":"sidebar","currentPaper":"papers/raft",
		"mentions":[{"kind":"directory","path":"notes"}]}`))
	want := plan.Request{Surface: "sidebar", CurrentPaper: "papers/raft", Selections: []plan.Selection{},
		Mentions: []plan.Mention{{Kind: "directory", Path: "notes"}}}
	if err != nil || !cmp.Equal(got, want) {
		t.Errorf("DecodeRequest: %v\n%s", err, cmp.Diff(want, got))
	}
	got, err = workspace.DecodeRequest(strings.NewReader(`{}`))
	if err != nil || !cmp.Equal(got, workspace.QuickChat()) {
		t.Errorf("an empty request is Quick Chat with nothing pointed at: %+v, %v", got, err)
	}
	for _, bad := range []string{
		`{"surface":"sidebar","paper":"papers/raft"}`,
		`{"surface":"sidebar","selections":[{"sourcePath":"a.pdf","pg":2}]}`,
		`{"surface":"sidebar"}{}`,
		`[]`,
		``,
	} {
		if _, err := workspace.DecodeRequest(strings.NewReader(bad)); workspace.Code(err) != events.CodeInvalid {
			t.Errorf("DecodeRequest(%q) = %v, want an invalid-request error", bad, err)
		}
	}
}
