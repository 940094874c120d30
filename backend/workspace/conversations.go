package workspace

import (
	"context"
	"errors"

	"github.com/agentero/agentero/backend/conversation"
)

// Conversations lists the vault's conversations (sidebar and Quick Chat),
// the most recently updated first; with a query, only those whose title or
// messages hold every word of it.
func (w *Workspace) Conversations(query string) ([]conversation.Summary, error) {
	return call(context.Background(), w, func(context.Context) ([]conversation.Summary, error) {
		return w.host.Store().Search(query)
	})
}

// RenameConversation gives a conversation a title ("" = its first
// question again). It is refused while the conversation answers.
func (w *Workspace) RenameConversation(id, title string) (conversation.Summary, error) {
	return call(context.Background(), w, func(context.Context) (conversation.Summary, error) {
		s, err := w.host.RenameConversation(id, title)
		return s, conversationError(err)
	})
}

// DeleteConversation removes a conversation and its transcript from disk.
// It is refused while the conversation answers.
func (w *Workspace) DeleteConversation(id string) error {
	_, err := call(context.Background(), w, func(context.Context) (struct{}, error) {
		return struct{}{}, conversationError(w.host.DeleteConversation(id))
	})
	return err
}

func conversationError(err error) error {
	switch {
	case errors.Is(err, conversation.ErrNoConversation):
		return notFound(err)
	case errors.Is(err, conversation.ErrBadConversationID):
		return invalid(err)
	}
	return err
}
