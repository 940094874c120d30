package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tool list is small and its descriptions short: every schema is sent
// with every request the agent makes (SPEC §4).

type toolDef struct {
	tool *sdk.Tool
	run  toolFunc
}

// Input limits. Anything past them is refused as absurd rather than clamped,
// so that an agent learns the contract.
const (
	maxQuery   = 500
	maxRef     = 1024
	maxQuote   = 2000
	maxSection = 300
	maxCursor  = 200
	maxLimit   = 50
)

func tools() []toolDef {
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
	return []toolDef{
		{&sdk.Tool{
			Name:        "context_search",
			Description: "Search the papers and files granted to this turn. Returns short evidence cards (ref, page, snippet, citationUri); read more with context_read. A query naming a figure or table (\"figure 3\") or matching its caption also returns figure cards (kind, label, caption as snippet, page, region): open makes the context_read call that shows it as an image.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["query"],"properties":{
				"query":{"type":"string","minLength":1,"maxLength":500,"description":"words; \"quoted phrases\" match exactly"},
				"limit":{"type":"integer","minimum":1,"maximum":50},
				"cursor":{"type":"string","maxLength":200,"description":"nextCursor of the previous call"}}}`),
			Annotations: ro,
		}, (*Server).search},
		{&sdk.Tool{
			Name:        "context_read",
			Description: "Read a granted paper, file or directory. ref: paper ref, file or directory path, or a citationUri. Paper modes: metadata (default), excerpt (around quote), page, section, region, image (page or region as a PNG: to see a figure, table, equation or scanned page), full. A cut result says so: part is what it holds, remaining what is left unread, next the exact call that reads on (or nextCursor with the same arguments).",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["ref"],"properties":{
				"ref":{"type":"string","minLength":1,"maxLength":1024},
				"mode":{"type":"string","enum":["metadata","excerpt","page","section","region","image","full"]},
				"page":{"type":"integer","minimum":1,"description":"physical page, 1-based"},
				"section":{"type":"string","minLength":1,"maxLength":300,"description":"section title or number (metadata lists them)"},
				"region":{"type":"object","additionalProperties":false,"required":["x","y","width","height"],"description":"PDF points from the page's top-left","properties":{
					"x":{"type":"number","minimum":0},"y":{"type":"number","minimum":0},
					"width":{"type":"number","exclusiveMinimum":0},"height":{"type":"number","exclusiveMinimum":0}}},
				"quote":{"type":"string","minLength":1,"maxLength":2000},
				"cursor":{"type":"string","maxLength":200}}}`),
			Annotations: ro,
		}, (*Server).read},
		{&sdk.Tool{
			Name:        "paper_relations",
			Description: "Library papers a granted paper references, that cite it, or that are related. Cards with inGrant=false cannot be read in this turn.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["ref"],"properties":{
				"ref":{"type":"string","minLength":1,"maxLength":1024},
				"kind":{"type":"string","enum":["references","citedBy","related"],"description":"default: all three"},
				"limit":{"type":"integer","minimum":1,"maximum":50,"description":"cards per kind, default 10"}}}`),
			Annotations: ro,
		}, (*Server).relations},
	}
}

var argName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,39}$`)

// decode reads tool arguments strictly: unknown arguments and wrong types
// are errors that name the argument, never its value.
func decode(args json.RawMessage, v any) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			if te.Field == "" {
				return errorf("arguments must be a JSON object")
			}
			want := te.Type.String()
			switch {
			case strings.Contains(want, "int"):
				want = "a whole number in range"
			case strings.Contains(want, "float"):
				want = "a number"
			case strings.Contains(want, "string"):
				want = "a string"
			default:
				want = "an object"
			}
			return errorf("argument %s must be %s", te.Field, want)
		}
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			name = strings.Trim(name, `"`)
			if argName.MatchString(name) {
				return errorf("unknown argument %s", name)
			}
			return errorf("unknown argument")
		}
		return errorf("arguments are not valid JSON")
	}
	if dec.More() {
		return errorf("arguments are not valid JSON")
	}
	return nil
}

// limitArg checks an optional limit: absent means def; outside 1..max is
// refused.
func limitArg(v *int, def, max int) (int, error) {
	if v == nil {
		return def, nil
	}
	if *v < 1 || *v > max {
		return 0, errorf("limit must be between 1 and %d", max)
	}
	return *v, nil
}
