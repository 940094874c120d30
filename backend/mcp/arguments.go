package mcp

import (
	"encoding/json"
	"sort"
)

// Arguments lists, for each tool an agentero-context server can offer, the
// names of the arguments its input schema takes. The host's permission
// policy allows a call without asking only when its input holds nothing
// else (backend/acp): a request that names our tool but carries a
// command is not a call of our tool.
func Arguments() map[string][]string {
	out := map[string][]string{}
	for _, list := range [][]toolDef{tools(), docTools(), sessionTools()} {
		for _, t := range list {
			var schema struct {
				Properties map[string]json.RawMessage `json:"properties"`
			}
			raw, _ := json.Marshal(t.tool.InputSchema)
			json.Unmarshal(raw, &schema)
			names := []string{}
			for n := range schema.Properties {
				names = append(names, n)
			}
			sort.Strings(names)
			out[t.tool.Name] = names
		}
	}
	return out
}
