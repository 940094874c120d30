package mcp

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/agentero/agentero/backend/context/docs"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// docTools are offered only when the vault has context documents
// (SPEC §8.2): reading them is never gated by the turn's grant, since they
// are the vault's standing guidance; writing them is for the user alone.
func docTools() []toolDef {
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
	return []toolDef{
		{&sdk.Tool{
			Name:        "context_list_docs",
			Description: "List the vault's context documents (id, description, trigger). Read one with context_read_doc.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{
				"limit":{"type":"integer","minimum":1,"maximum":50,"description":"default 20"},
				"cursor":{"type":"string","maxLength":200,"description":"nextCursor of the previous call"}}}`),
			Annotations: ro,
		}, (*Server).listDocs},
		{&sdk.Tool{
			Name:        "context_read_doc",
			Description: "Read a vault context document by id, 8 KB at a time; pass nextOffset to continue.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["id"],"properties":{
				"id":{"type":"string","minLength":1,"maxLength":1024},
				"offset":{"type":"integer","minimum":0}}}`),
			Annotations: ro,
		}, (*Server).readDoc},
	}
}

func docError(err error) error {
	var in *docs.InputError
	switch {
	case errors.As(err, &in):
		return errorf("%s", in.Error())
	case errors.Is(err, docs.ErrNotFound):
		return errorf("no context document has that id: list them with context_list_docs")
	}
	return err
}

func (s *Server) listDocs(_ context.Context, args json.RawMessage, _ int) (reply, error) {
	var in struct {
		Limit  *int   `json:"limit"`
		Cursor string `json:"cursor"`
	}
	if err := decode(args, &in); err != nil {
		return reply{}, err
	}
	limit := 0
	if in.Limit != nil {
		limit = *in.Limit
		if limit < 1 {
			return reply{}, errorf("limit must be between 1 and %d", docs.MaxListLimit)
		}
	}
	page, err := s.docs.List(in.Cursor, limit)
	if err != nil {
		return reply{}, docError(err)
	}
	return reply{value: page}, nil
}

func (s *Server) readDoc(_ context.Context, args json.RawMessage, _ int) (reply, error) {
	var in struct {
		ID     string `json:"id"`
		Offset int    `json:"offset"`
	}
	if err := decode(args, &in); err != nil {
		return reply{}, err
	}
	seg, err := s.docs.Read(in.ID, in.Offset)
	if err != nil {
		return reply{}, docError(err)
	}
	return reply{value: seg}, nil
}
