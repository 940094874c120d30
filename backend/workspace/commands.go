package workspace

import (
	"context"
	"fmt"
	"os"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/context/compact"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/conversation"
)

// conversationExists refuses a bad or unknown conversation id.
func (w *Workspace) conversationExists(id string) error {
	if !grant.ValidRuntimeID(id) {
		return invalid(conversation.ErrBadConversationID)
	}
	if _, err := os.Stat(w.host.Store().Dir(id)); err != nil {
		return notFound(fmt.Errorf("no conversation %q in this vault", id))
	}
	return nil
}

// CompactConversation is /compact in the chat: the conversation's history
// compacted now, for its next session; the result says what was kept.
func (w *Workspace) CompactConversation(ctx context.Context, id string) (compact.Result, error) {
	return call(ctx, w, func(ctx context.Context) (compact.Result, error) {
		if err := w.conversationExists(id); err != nil {
			return compact.Result{}, err
		}
		return w.host.CompactNow(ctx, id)
	})
}

// ClearConversation is /clear in the chat: a new session with an empty
// history next turn; the transcript keeps everything.
func (w *Workspace) ClearConversation(id string) error {
	_, err := call(context.Background(), w, func(context.Context) (struct{}, error) {
		if err := w.conversationExists(id); err != nil {
			return struct{}{}, err
		}
		return struct{}{}, w.host.Clear(id)
	})
	return err
}

// SlashCommands lists what the chat offers after "/" in a conversation.
func (w *Workspace) SlashCommands(id string) ([]acp.Command, error) {
	return call(context.Background(), w, func(context.Context) ([]acp.Command, error) {
		if !grant.ValidRuntimeID(id) {
			return nil, invalid(conversation.ErrBadConversationID)
		}
		return w.host.Commands(id)
	})
}
