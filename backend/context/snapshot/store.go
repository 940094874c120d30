package snapshot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/vault"
)

// FileName is the snapshot's file inside a conversation's folder
// (.agentero/chats/<id>/).
const FileName = "snapshot.json"

// Save writes s to dir/snapshot.json, atomically, creating dir.
func Save(dir string, s *Snapshot) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encode snapshot: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, FileName), append(data, '\n'), atomicfile.Private); err != nil {
		return fmt.Errorf("save snapshot: %w", err)
	}
	return nil
}

// Load reads the snapshot stored in dir, through the vault's opener (a
// regular file, not a link out of dir, within vault.KindState's cap). A
// missing one is an error that matches fs.ErrNotExist; one whose content
// no longer renders to its hash (edited or damaged) is refused rather than
// sent.
func Load(dir string) (*Snapshot, error) {
	data, err := vault.ReadFile(context.Background(), dir, FileName, vault.KindState)
	if err != nil {
		return nil, fmt.Errorf("load snapshot: %w", err)
	}
	var s Snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("snapshot %s is damaged: %w", filepath.Join(dir, FileName), err)
	}
	if s.Version != Version {
		return nil, fmt.Errorf("snapshot %s has format version %d, this Agentero reads %d", filepath.Join(dir, FileName), s.Version, Version)
	}
	if hash(s.Render()) != s.Hash {
		return nil, fmt.Errorf("snapshot %s does not match its hash: it was edited or damaged", filepath.Join(dir, FileName))
	}
	return &s, nil
}

// LoadOrBuild returns the snapshot stored in dir, or builds one for the
// vault and stores it there when there is none; created says which. This
// is the rule of SPEC §8.1: a conversation's first session freezes the
// snapshot, and every later session of it (resume, load, handover) reuses
// it unchanged.
func LoadOrBuild(dir, vaultRoot string, opts Options) (s *Snapshot, created bool, err error) {
	s, err = Load(dir)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return s, false, err
	}
	if s, err = Build(vaultRoot, opts); err != nil {
		return nil, false, err
	}
	if err := Save(dir, s); err != nil {
		return nil, false, err
	}
	return s, true, nil
}
