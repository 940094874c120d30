package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/agentero/agentero/backend/atomicfile"
)

// Layout is how the user left the window: pane sizes in pixels and which
// panes are collapsed, by the names the UI gives them. It is the user's
// (layout.json in the configuration folder), kept across restarts whatever
// the web view keeps of its own storage.
type Layout struct {
	Sizes     map[string]int  `json:"sizes"`
	Collapsed map[string]bool `json:"collapsed"`
}

// maxLayout is the largest layout.json read back.
const maxLayout = 64 << 10

// Layout reads the window's layout; a missing or unreadable file is the
// default layout (empty).
func (c *Config) Layout() Layout {
	l := Layout{Sizes: map[string]int{}, Collapsed: map[string]bool{}}
	p, err := c.file("layout.json")
	if err != nil {
		return l
	}
	f, err := atomicfile.Open(p)
	if err != nil {
		return l
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxLayout+1))
	if err != nil || len(data) > maxLayout {
		return l
	}
	var got Layout
	if json.Unmarshal(data, &got) != nil {
		return l
	}
	for k, v := range got.Sizes {
		if v >= 0 && v <= 100_000 {
			l.Sizes[k] = v
		}
	}
	for k, v := range got.Collapsed {
		l.Collapsed[k] = v
	}
	return l
}

// SaveLayout stores the window's layout.
func (c *Config) SaveLayout(l Layout) error {
	if len(l.Sizes)+len(l.Collapsed) > 200 {
		return invalid(errors.New("a layout names at most 200 panes"))
	}
	data, err := json.Marshal(l)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p, err := c.file("layout.json")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(p, data, atomicfile.Private); err != nil {
		return fmt.Errorf("save the window's layout: %w", err)
	}
	return nil
}
