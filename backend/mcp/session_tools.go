package mcp

// The session's own tools beside the vault's sources: the conversation's
// earlier turns (context_history), a search over the context documents
// (context_search_docs) and the vault's skills (context_read_skill). Each
// is served only when the grant names it, so what a session can call is
// what its grant and fingerprint say (SPEC §8).

import (
	"context"
	"encoding/json"
	"errors"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/context/docs"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/history"
	"github.com/agentero/agentero/backend/context/skills"
)

func sessionTools() []toolDef {
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
	return []toolDef{
		{&sdk.Tool{
			Name: "context_history",
			Description: "Read this conversation's earlier turns, which may have been pruned or summarized out of your prompt. " +
				"Without turn: the list of turns (number and the user's words). With turn: that turn whole (question, tool calls and results, answer, sources), " +
				"line-numbered, a page at a time; pass nextOffset as offset to continue. Read-only; this conversation only.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{
				"turn":{"type":"integer","minimum":0,"description":"turn number (1 = first); 0 or absent lists the turns"},
				"offset":{"type":"integer","minimum":0,"description":"first line, 0-based (nextOffset of the previous page)"},
				"limit":{"type":"integer","minimum":1,"maximum":400,"description":"lines, default 400"}}}`),
			Annotations: ro,
		}, (*Server).readHistory},
		{&sdk.Tool{
			Name:        "context_search_docs",
			Description: "Search the vault's context documents (id, description and body) for every word of a query; returns ids, trust levels and snippets with the offset to read on from with context_read_doc.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["query"],"properties":{
				"query":{"type":"string","minLength":1,"maxLength":500},
				"limit":{"type":"integer","minimum":1,"maximum":20,"description":"default 20"}}}`),
			Annotations: ro,
		}, (*Server).searchDocs},
		{&sdk.Tool{
			Name: grant.WriteDocTool,
			Description: "Write a whole context document of the vault (front matter and body). Every call needs the user's approval: ask for permission first. " +
				"To edit, pass the revision or etag of your last read or receipt as expectedRevision/expectedEtag: if the document changed since, nothing is written and you get a conflict. Returns a receipt (revision, etag, sizeBytes, sha256), not the body.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["id","content"],"properties":{
				"id":{"type":"string","minLength":1,"maxLength":1024,"description":"path of the .md file inside the context folder"},
				"content":{"type":"string","maxLength":1048576},
				"expectedRevision":{"type":"string","maxLength":100},
				"expectedEtag":{"type":"string","maxLength":100}}}`),
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: new(bool), IdempotentHint: false, OpenWorldHint: new(bool)},
		}, (*Server).writeDoc},
		{&sdk.Tool{
			Name:        "context_read_skill",
			Description: "Read the instructions of one of the vault's skills, by the name the session's skill list gives.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["name"],"properties":{
				"name":{"type":"string","minLength":1,"maxLength":64}}}`),
			Annotations: ro,
		}, (*Server).readSkill},
	}
}

func (s *Server) readHistory(_ context.Context, args json.RawMessage, room int) (reply, error) {
	var in struct {
		Turn   int `json:"turn"`
		Offset int `json:"offset"`
		Limit  int `json:"limit"`
	}
	if err := decode(args, &in); err != nil {
		return reply{}, err
	}
	if s.grant.Conversation == "" {
		return reply{}, errorf("this turn belongs to no conversation: there is no history to read")
	}
	turns, err := history.Read(s.grant.Vault, s.grant.Conversation)
	if err != nil {
		return reply{}, err
	}
	page, err := history.Paginate(s.grant.Conversation, turns, in.Turn, in.Offset, in.Limit, max(minRoom, room-300))
	if err != nil {
		return reply{}, errorf("%s", err.Error())
	}
	return reply{value: page}, nil
}

func (s *Server) searchDocs(_ context.Context, args json.RawMessage, _ int) (reply, error) {
	var in struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := decode(args, &in); err != nil {
		return reply{}, err
	}
	if s.docs == nil {
		return reply{}, errorf("this vault has no context documents")
	}
	res, err := s.docs.Search(in.Query, in.Limit)
	if err != nil {
		return reply{}, docError(err)
	}
	return reply{value: res}, nil
}

func (s *Server) writeDoc(_ context.Context, args json.RawMessage, _ int) (reply, error) {
	var in struct {
		ID               string `json:"id"`
		Content          string `json:"content"`
		ExpectedRevision string `json:"expectedRevision"`
		ExpectedEtag     string `json:"expectedEtag"`
	}
	if err := decode(args, &in); err != nil {
		return reply{}, err
	}
	// The host's approvals socket is the current grant's: a server kept
	// across turns asks the host that wrote this turn's grant.
	g := s.grant
	if s.grantPath != "" {
		if cur, err := grant.Load(s.grantPath); err == nil && cur.Fingerprint == g.Fingerprint {
			g = cur
		}
	}
	if err := grant.TakeApproval(g, grant.WriteDocTool); err != nil {
		return reply{}, errorf("%s", err.Error())
	}
	r, err := docs.Write(s.grant.Vault, in.ID, in.Content, docs.Expect{Revision: in.ExpectedRevision, Etag: in.ExpectedEtag})
	if errors.Is(err, docs.ErrConflict) {
		cur, _ := docs.Stat(s.grant.Vault, in.ID)
		return reply{}, errorf("conflict: %s (current revision %q, etag %q)", err.Error(), cur.Revision, cur.Etag)
	}
	if err != nil {
		return reply{}, docError(err)
	}
	return reply{value: r}, nil
}

func (s *Server) readSkill(_ context.Context, args json.RawMessage, _ int) (reply, error) {
	var in struct {
		Name string `json:"name"`
	}
	if err := decode(args, &in); err != nil {
		return reply{}, err
	}
	sk, body, err := skills.Body(s.grant.Vault, in.Name)
	if errors.Is(err, skills.ErrNotFound) {
		return reply{}, errorf("%s", err.Error())
	}
	if err != nil {
		return reply{}, err
	}
	return reply{value: map[string]any{"name": sk.Name, "description": sk.Description, "path": sk.Path, "instructions": body}}, nil
}
