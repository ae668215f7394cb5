package mcp

import (
	"encoding/json"
	"fmt"
)

// inputSchema is a server's input schema as providers accept it. OpenAI
// refuses a whole request when one tool's schema has an object without
// properties or an array without items, and the Go SDK itself gives a
// tool of no arguments {"type":"object"}; empty properties and items
// accept what their absence did.
func inputSchema(schema any) (json.RawMessage, error) {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("mcp: input schema: %w", err)
	}
	var tree any
	if err := json.Unmarshal(b, &tree); err != nil {
		return nil, fmt.Errorf("mcp: input schema: %w", err)
	}
	if err := takesObjects(tree); err != nil {
		return nil, err
	}
	if !complete(tree) {
		return b, nil
	}
	b, err = json.Marshal(tree)
	if err != nil {
		return nil, fmt.Errorf("mcp: input schema: %w", err)
	}
	return b, nil
}

// takesObjects refuses a schema that no object matches by its type: a
// tool's arguments are an object, and OpenAI and Anthropic refuse every
// request that offers a tool whose schema says otherwise, so one such
// tool would fail every model call of the agent it joined. A schema
// without a type is taken for an object's, as the providers take it.
func takesObjects(schema any) error {
	m, ok := schema.(map[string]any)
	switch {
	case !ok:
		return fmt.Errorf("mcp: input schema %.40s is not a JSON object", jsonText(schema))
	case m["type"] == nil || hasType(m, "object"):
		return nil
	}
	return fmt.Errorf("mcp: input schema is of type %s, not object: a tool's arguments are an object", jsonText(m["type"]))
}

// jsonText is v as JSON, for an error.
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// complete adds the missing properties and items to the schema s and to
// the schemas within it (not to values such as defaults, which are
// data), and reports whether it changed anything.
func complete(s any) bool {
	m, ok := s.(map[string]any)
	if !ok {
		return false
	}
	changed := false
	if hasType(m, "object") && m["properties"] == nil {
		m["properties"] = map[string]any{}
		changed = true
	}
	if hasType(m, "array") && m["items"] == nil && m["prefixItems"] == nil {
		m["items"] = map[string]any{}
		changed = true
	}
	for _, k := range []string{"items", "additionalProperties", "not"} {
		changed = complete(m[k]) || changed
	}
	for _, k := range []string{"properties", "$defs", "definitions", "patternProperties"} {
		if sub, ok := m[k].(map[string]any); ok {
			for _, v := range sub {
				changed = complete(v) || changed
			}
		}
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if sub, ok := m[k].([]any); ok {
			for _, v := range sub {
				changed = complete(v) || changed
			}
		}
	}
	return changed
}

// hasType reports whether the schema's type is t or a list holding t.
func hasType(m map[string]any, t string) bool {
	switch typ := m["type"].(type) {
	case string:
		return typ == t
	case []any:
		for _, x := range typ {
			if x == t {
				return true
			}
		}
	}
	return false
}
