// Package conversation is the store of a vault's conversations, kept in
// .agentero/chats/<id>/: each one's state (state.json), its transcript
// (written and read through backend/transcript), its compaction and the
// prompt its last turn sent. The host (acp) runs the turns and keeps their
// results here; the workspace lists, renames and deletes through it.
package conversation

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/transcript"
	"github.com/agentero/agentero/backend/vault"
)

// Message is one visible message of a conversation. An answer keeps what
// its turn showed while it streamed, so that a reopened conversation shows
// the same: its tool calls, its permission decisions, its sources.
type Message struct {
	ID      string `json:"id"`
	Role    string `json:"role"` // user or assistant
	Content string `json:"content"`
	// Sources are the citations the answer uses; Consulted what the
	// tools returned that it does not (answers only).
	Sources   []string `json:"sources,omitempty"`
	Consulted []string `json:"consulted,omitempty"`
	// Checks are the claim checks of the answer's citations (answers
	// only), in the order the answer writes them.
	Checks []citation.Check `json:"checks,omitempty"`
	// Error is why the turn failed, shown with the message; ErrorCode its
	// code (events.Code*).
	Error     string `json:"error,omitempty"`
	ErrorCode string `json:"errorCode,omitempty"`
	// Agent is the agent the question went to, or that answered; "" in
	// conversations stored before it was kept.
	Agent string `json:"agent,omitempty"`
	// Plan is the agent's last plan of the turn (answers only).
	Plan []PlanStep `json:"plan,omitempty"`
	// Tools are the turn's tool calls in the order they began, each in
	// its final state (answers, and failed turns' last message).
	Tools []events.AgentToolEvent `json:"tools,omitempty"`
	// Permissions are the turn's permission requests as decided, in the
	// order they were.
	Permissions []events.AgentPermissionEvent `json:"permissions,omitempty"`
	// StopReason is why the agent stopped answering (ACP's end_turn,
	// cancelled, max_tokens, …; answers only): a cancelled turn reopens
	// as cancelled.
	StopReason string `json:"stopReason,omitempty"`
	// Sandbox is how the agent that answered ran (bubblewrap, landlock or
	// none), SandboxWhy what that means (answers only).
	Sandbox    string    `json:"sandbox,omitempty"`
	SandboxWhy string    `json:"sandboxWhy,omitempty"`
	At         time.Time `json:"at"`
}

// PlanStep is one entry of an agent's plan (ACP agent_plan), as the UI
// shows it.
type PlanStep struct {
	Content  string `json:"content"`
	Priority string `json:"priority,omitempty"`
	Status   string `json:"status,omitempty"`
}

// Conversation is a sidebar thread (one per paper) or a Quick Chat thread,
// kept in .agentero/chats/<id>/state.json. The full transcript is beside it.
type Conversation struct {
	ID      string `json:"id"`
	Surface string `json:"surface"`
	// Title is the name the user gave the conversation; "" shows its
	// first question (DisplayTitle).
	Title string `json:"title,omitempty"`
	// Paper is the ref of the paper a sidebar conversation is about.
	Paper             string `json:"paper,omitempty"`
	Agent             string `json:"agent"`
	RuntimeID         string `json:"runtimeId"`
	ProviderSessionID string `json:"providerSessionId"`
	Fingerprint       string `json:"fingerprint"`
	SessionSeen       int    `json:"sessionSeen"` // messages the current provider session has seen
	// ClearedTurns is how many of the oldest finished turns /clear left
	// behind: no later session is handed them (the transcript keeps them).
	ClearedTurns int       `json:"clearedTurns,omitempty"`
	Messages     []Message `json:"messages"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
}

// Store keeps conversations of one vault. It does not decide who may
// change a conversation: the agents' host holds a conversation for one turn
// (or rename, delete, /compact, /clear) at a time and refuses the others
// (acp.ErrBusy), and calls the store under that hold.
//
// What Load reads back from a conversation's folder is the vault's, and a
// vault may be someone else's folder: the ids in state.json name folders
// (the conversation's own, its grants', its working folder), so Load checks
// them against the id it was asked for before anything uses them.
type Store struct {
	vault string // the vault's root
	root  string // <vault>/.agentero/chats
	log   *slog.Logger
}

// NewStore returns the conversation store of a vault; log (nil = none)
// hears of the state files Load had to repair.
func NewStore(vaultRoot string, log *slog.Logger) *Store {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Store{vault: vaultRoot, root: filepath.Join(vaultRoot, vault.StateDir, "chats"), log: log}
}

// ErrBadConversationID is returned for ids that cannot name a folder.
var ErrBadConversationID = errors.New("a conversation id may hold only letters, digits, '.', '_' and '-'")

// Dir is the folder of a conversation.
func (s *Store) Dir(id string) string { return filepath.Join(s.root, id) }

// Folder makes sure the conversation's folder is a real, private folder
// inside the vault's state folder (vault.StateFolder) and returns it.
func (s *Store) Folder(id string) (string, error) {
	if !grant.ValidRuntimeID(id) {
		return "", ErrBadConversationID
	}
	return vault.StateFolder(s.vault, "chats", id)
}

// Load returns the conversation, or a new empty one when it does not exist.
// The ids read back are checked, not trusted: a conversation is the folder
// it was asked for, whatever id its state.json claims, and a runtime id is
// one of its own (ValidRuntimeID and "<id>." before it) or is dropped with
// its provider session, so the next turn starts a new one. Each repair is
// logged.
func (s *Store) Load(id string) (*Conversation, error) {
	if !grant.ValidRuntimeID(id) {
		return nil, ErrBadConversationID
	}
	data, err := s.read(id, "state.json")
	if errors.Is(err, fs.ErrNotExist) {
		return &Conversation{ID: id, Messages: []Message{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read conversation: %w", err)
	}
	var c Conversation
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("conversation %s is damaged: %w", id, err)
	}
	if c.ID != id {
		s.log.Warn("conversation state names another id; using its folder's", "conversation", id, "stored", c.ID)
		c.ID = id
	}
	if c.RuntimeID != "" && !OwnRuntimeID(id, c.RuntimeID) {
		s.log.Warn("conversation state has a runtime id not its own; a new session will start", "conversation", id, "stored", c.RuntimeID)
		c.RuntimeID, c.ProviderSessionID, c.Fingerprint, c.SessionSeen = "", "", "", 0
	}
	if c.Messages == nil {
		c.Messages = []Message{}
	}
	return &c, nil
}

// maxStateFile is the largest state.json or compaction.json read back.
const maxStateFile = 64 << 20

// open opens one of a conversation's files for reading: inside a real
// folder of the vault's state (vault.FindStateFolder), never through a
// link, a regular file only (atomicfile.Open).
func (s *Store) open(id, name string) (*os.File, error) {
	if !grant.ValidRuntimeID(id) {
		return nil, ErrBadConversationID
	}
	dir, err := vault.FindStateFolder(s.vault, "chats", id)
	if err != nil {
		return nil, err
	}
	return atomicfile.Open(filepath.Join(dir, name))
}

// read reads one of a conversation's small files (see open), up to
// maxStateFile.
func (s *Store) read(id, name string) ([]byte, error) {
	f, err := s.open(id, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxStateFile+1))
	if err == nil && len(data) > maxStateFile {
		err = fmt.Errorf("%s of conversation %s is larger than %d MB", name, id, maxStateFile>>20)
	}
	return data, err
}

// OwnRuntimeID reports whether runtimeID can be a runtime id of the
// conversation: a valid one (grant.ValidRuntimeID) made for it, "<id>."
// followed by the session's own part, as the host makes them.
func OwnRuntimeID(conversationID, runtimeID string) bool {
	rest, ok := strings.CutPrefix(runtimeID, conversationID+".")
	return ok && rest != "" && grant.ValidRuntimeID(runtimeID)
}

// Save writes the conversation's state atomically, private to the user.
func (s *Store) Save(c *Conversation) error {
	dir, err := s.Folder(c.ID)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "state.json"), append(data, '\n'), atomicfile.Private)
}

// Append adds entries to a conversation's transcript (transcript.Append).
// A conversation's appends come from its turn, one at a time.
func (s *Store) Append(id string, entries ...transcript.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	dir, err := s.Folder(id)
	if err != nil {
		return err
	}
	return transcript.Append(dir, entries...)
}

// Transcript reads a conversation's transcript (transcript.Read), from its
// folder inside the vault's own state folder.
func (s *Store) Transcript(id string) ([]transcript.Entry, error) {
	if !grant.ValidRuntimeID(id) {
		return nil, ErrBadConversationID
	}
	dir, err := vault.FindStateFolder(s.vault, "chats", id)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return transcript.Read(dir)
}
