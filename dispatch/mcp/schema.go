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
	if !complete(tree) {
		return b, nil
	}
	b, err = json.Marshal(tree)
	if err != nil {
		return nil, fmt.Errorf("mcp: input schema: %w", err)
	}
	return b, nil
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
