package turn_test

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/turn"
)

// TestToolSchemaBooleanBranches: a union's branch may be a boolean
// schema. false matches nothing, so in anyOf or oneOf it is left out like
// a branch of another type, and allOf with it matches nothing. true
// matches any object: in allOf it narrows nothing, and in anyOf or oneOf
// it makes the union take any object, so the union adds no properties
// and requires nothing.
func TestToolSchemaBooleanBranches(t *testing.T) {
	point := map[string]any{"type": "object", "properties": map[string]any{
		"x": map[string]any{"type": "number"}, "y": map[string]any{"type": "number"},
	}, "required": []any{"x", "y"}}
	const pointSchema = `{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]}`
	anyObject := map[string]any{"type": "object", "properties": map[string]any{}}
	checkToolSchemas(t, []schemaCase{
		{"anyOf with false", `{"anyOf":[` + pointSchema + `,false]}`, point},
		{"oneOf with false first", `{"oneOf":[false,` + pointSchema + `]}`, point},
		{"anyOf with true", `{"anyOf":[` + pointSchema + `,true]}`, anyObject},
		{"oneOf with true", `{"oneOf":[true,` + pointSchema + `]}`, anyObject},
		{"anyOf with true keeps the top's own",
			`{"description":"A point.","properties":{"z":{"type":"number"}},"required":["z"],"anyOf":[` + pointSchema + `,true]}`,
			map[string]any{"type": "object", "description": "A point.", "properties": map[string]any{"z": map[string]any{"type": "number"}}, "required": []any{"z"}}},
		{"allOf with true", `{"allOf":[true,` + pointSchema + `]}`, point},
		{"allOf of true only", `{"allOf":[true]}`, anyObject},
		{"a nested anyOf with true", `{"allOf":[{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},true]},` + pointSchema + `]}`, point},
	})
}

// TestToolSchemaRefusesFalse: a union false leaves no object to match is
// refused, saying why.
func TestToolSchemaRefusesFalse(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"anyOf":[false]}`, "anyOf has no branch an object can match"},
		{`{"oneOf":[false,{"type":"null"}]}`, "oneOf has no branch an object can match"},
		{`{"allOf":[{"type":"object"},false]}`, "allOf[1] is false, which nothing matches"},
	}
	for _, tt := range tests {
		if _, err := turn.ToolSchema([]byte(tt.schema)); err == nil || !strings.HasSuffix(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.schema, err, tt.want)
		}
	}
}
