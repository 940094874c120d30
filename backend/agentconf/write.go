package agentconf

// Writing agents.json: an agent added by Settings' form goes into the file
// as the user keeps it. The file may have been written by hand: its other
// entries, the fields Agentero does not know (in an entry or around the
// list) and their values are kept; only the new entry (and, when asked,
// "default") is added.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"strings"

	"github.com/agentero/agentero/backend/atomicfile"
)

// ErrDuplicateAgent means an agent is added under a name the configuration
// has already (in any case: "Claude" and "claude" would be told apart by
// no one choosing between them).
var ErrDuplicateAgent = errors.New("an agent of that name exists")

// PrepareNew checks an agent the user is about to add to the agents file
// at path (Prepare), and that no agent there has its name. The error is
// one sentence in the user's words: ErrInvalidAgent, ErrRelativeCommand,
// ErrCommandNotFound or ErrDuplicateAgent.
func PrepareNew(path string, ag Agent) (Agent, error) {
	ag, _, err := prepareNew(path, ag)
	return ag, err
}

// prepareNew is PrepareNew, with the agents file as read.
func prepareNew(path string, ag Agent) (Agent, *file, error) {
	ag, err := Prepare(ag)
	if err != nil {
		return Agent{}, nil, err
	}
	f, err := readFile(path)
	if err != nil {
		return Agent{}, nil, err
	}
	if err := f.free(ag.Name); err != nil {
		return Agent{}, nil, err
	}
	return ag, f, nil
}

// Add checks a new agent (PrepareNew) and writes it into the agents file
// at path, atomically and private to the user, after the entries the file
// has; with makeDefault it becomes the default. Everything else the file
// holds is kept as it is. It returns the agent as stored (its command an
// absolute path).
func Add(path string, ag Agent, makeDefault bool) (Agent, error) {
	ag, f, err := prepareNew(path, ag)
	if err != nil {
		return Agent{}, err
	}
	entry, err := json.Marshal(ag)
	if err != nil {
		return Agent{}, err
	}
	f.entries = append(f.entries, entry)
	if makeDefault {
		f.top["default"], _ = json.Marshal(ag.Name)
	}
	if err := f.write(path); err != nil {
		return Agent{}, err
	}
	return ag, nil
}

// file is agents.json as written: its top-level fields and its entries,
// each as the JSON it holds.
type file struct {
	top     map[string]json.RawMessage
	entries []json.RawMessage
}

// readFile reads the agents file at path; a missing one is empty. A file
// that is not an object with a list of agents is an error, and is never
// written over.
func readFile(path string) (*file, error) {
	f := &file{top: map[string]json.RawMessage{}}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f, nil
	case err != nil:
		return nil, fmt.Errorf("read agents: %w", err)
	}
	if err := json.Unmarshal(data, &f.top); err != nil || f.top == nil {
		return nil, fmt.Errorf("the agents file %s is not a JSON object; fix it by hand first", path)
	}
	if list, ok := f.top["agents"]; ok && string(list) != "null" {
		if err := json.Unmarshal(list, &f.entries); err != nil {
			return nil, fmt.Errorf("the agents file %s has no list of agents under \"agents\"; fix it by hand first", path)
		}
	}
	return f, nil
}

// free says, as ErrDuplicateAgent, that the file (or the built-in agent)
// has an agent named name.
func (f *file) free(name string) error {
	taken := func() error {
		return fail(fmt.Sprintf("there is already an agent named %q: choose another name", name), ErrDuplicateAgent)
	}
	if strings.EqualFold(name, BuiltinName) {
		return taken()
	}
	for _, e := range f.entries {
		var ag struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(e, &ag) == nil && strings.EqualFold(strings.TrimSpace(ag.Name), name) {
			return taken()
		}
	}
	return nil
}

// write replaces the file at path with f, atomically.
func (f *file) write(path string) error {
	if f.entries == nil {
		f.entries = []json.RawMessage{}
	}
	list, err := json.Marshal(f.entries)
	if err != nil {
		return err
	}
	f.top["agents"] = list
	data, err := json.MarshalIndent(f.top, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, append(data, '\n'), atomicfile.Private); err != nil {
		return fmt.Errorf("write agents: %w", err)
	}
	return nil
}

// agentFields are the names Agent's fields have in the file: the fields of
// an entry Agentero knows, which it writes itself; any other is the user's.
var agentFields = func() map[string]bool {
	out := map[string]bool{}
	t := reflect.TypeFor[Agent]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out[name] = true
		}
	}
	return out
}()

// keepUnknown is a as the file at path is to hold it, with what the file
// holds that Agents does not know: the top-level fields besides "default"
// and "agents", and each entry's unknown fields, by the entry's name. A
// file that cannot be read is written over, as before.
func keepUnknown(path string, a Agents) (*file, error) {
	old, err := readFile(path)
	if err != nil {
		old = &file{top: map[string]json.RawMessage{}}
	}
	extra := map[string]map[string]json.RawMessage{}
	for _, e := range old.entries {
		var fields map[string]json.RawMessage
		var named struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(e, &fields) != nil || json.Unmarshal(e, &named) != nil {
			continue
		}
		for k := range fields {
			if agentFields[k] {
				delete(fields, k)
			}
		}
		if len(fields) > 0 {
			extra[named.Name] = fields
		}
	}
	f := &file{top: old.top, entries: []json.RawMessage{}}
	for _, ag := range a.List {
		data, err := json.Marshal(ag)
		if err != nil {
			return nil, err
		}
		if more := extra[ag.Name]; len(more) > 0 {
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(data, &fields); err != nil {
				return nil, err
			}
			for k, v := range more {
				fields[k] = v
			}
			if data, err = json.Marshal(fields); err != nil {
				return nil, err
			}
		}
		f.entries = append(f.entries, data)
	}
	f.top["default"], _ = json.Marshal(a.Default)
	return f, nil
}
