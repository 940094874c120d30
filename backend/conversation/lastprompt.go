package conversation

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/agentero/agentero/backend/atomicfile"
)

// PromptPart is one text block of a turn's prompt as it was sent.
type PromptPart struct {
	// Kind names the block: snapshot (the frozen context), plan (the
	// turn's context with its selections and evidence), handover (the
	// conversation so far, compacted), question.
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// SentPrompt is what the last turn of a conversation actually sent to its
// agent ("What the agent sees"), kept in last-prompt.json beside the
// transcript and replaced by each turn.
type SentPrompt struct {
	Turn      string       `json:"turn"`
	At        time.Time    `json:"at"`
	Agent     string       `json:"agent"`
	SessionID string       `json:"sessionId"`
	Action    string       `json:"action"` // new, warm, resume, load, continue
	Tools     []string     `json:"tools"`  // the tools the session could call
	Parts     []PromptPart `json:"parts"`
}

const lastPromptFile = "last-prompt.json"

func (s *Store) SaveLastPrompt(id string, p SentPrompt) error {
	dir, err := s.Folder(id)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, lastPromptFile), data, atomicfile.Private)
}

// LastPrompt returns what the conversation's last turn sent to its agent;
// nil when no turn has been sent yet.
func (s *Store) LastPrompt(id string) (*SentPrompt, error) {
	data, err := s.read(id, lastPromptFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var p SentPrompt
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	return &p, nil
}
