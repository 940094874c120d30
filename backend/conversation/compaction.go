package conversation

import (
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/agentero/agentero/backend/atomicfile"
)

// Compaction is the summary state kept beside a conversation
// (compaction.json): the summary of its earliest turns, how many it covers.
type Compaction struct {
	Summary     string    `json:"summary"`
	SummarizedN int       `json:"summarizedN"`
	At          time.Time `json:"at"`
}

// LoadCompaction reads the conversation's compaction; none (or a damaged
// one) is the zero Compaction.
func (s *Store) LoadCompaction(id string) Compaction {
	var c Compaction
	data, err := s.read(id, "compaction.json")
	if err == nil {
		json.Unmarshal(data, &c)
	}
	return c
}

// SaveCompaction writes the conversation's compaction, private to the user.
func (s *Store) SaveCompaction(id string, c Compaction) error {
	dir, err := s.Folder(id)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "compaction.json"), data, atomicfile.Private)
}
