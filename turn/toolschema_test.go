package turn_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/turn"
)

// TestToolSchemaMergesUnions: a union whose branches are all objects
// becomes one object with every branch's properties, requiring what the
// union requires whichever branch is taken.
func TestToolSchemaMergesUnions(t *testing.T) {
	checkToolSchemas(t, []schemaCase{
		{"none", ``, map[string]any{"type": "object", "properties": map[string]any{}}},
		{"null", `null`, map[string]any{"type": "object", "properties": map[string]any{}}},
		{"anyOf of objects",
			`{"anyOf":[{"type":"object","properties":{"city":{"type":"string"},"units":{"type":"string"}},"required":["city","units"]},{"type":"object","properties":{"lat":{"type":"number"},"lon":{"type":"number"},"units":{"type":"string"}},"required":["lat","lon","units"],"additionalProperties":false}]}`,
			map[string]any{"type": "object", "properties": map[string]any{
				"city": map[string]any{"type": "string"}, "units": map[string]any{"type": "string"},
				"lat": map[string]any{"type": "number"}, "lon": map[string]any{"type": "number"},
			}, "required": []any{"units"}}},
		{"oneOf of required sets beside properties",
			`{"type":"object","properties":{"path":{"type":"string"},"paths":{"type":"array","items":{"type":"string"}}},"oneOf":[{"required":["path"]},{"required":["paths"]}]}`,
			map[string]any{"type": "object", "properties": map[string]any{
				"path": map[string]any{"type": "string"}, "paths": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			}}},
		{"discriminated union",
			`{"description":"A shape.","oneOf":[{"properties":{"kind":{"const":"circle"},"r":{"type":"number"}},"required":["kind","r"]},{"properties":{"kind":{"const":"square"},"side":{"type":"number"}},"required":["kind","side"]}]}`,
			map[string]any{"type": "object", "description": "A shape.", "properties": map[string]any{
				"kind": map[string]any{"anyOf": []any{map[string]any{"const": "circle"}, map[string]any{"const": "square"}}},
				"r":    map[string]any{"type": "number"}, "side": map[string]any{"type": "number"},
			}, "required": []any{"kind"}}},
		{"allOf requires what any branch requires, through a reference",
			`{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"$ref":"#/$defs/b"}],"$defs":{"b":{"type":"object","properties":{"b":{"type":"integer"}},"required":["b"]}}}`,
			map[string]any{"type": "object", "properties": map[string]any{
				"a": map[string]any{"type": "string"}, "b": map[string]any{"type": "integer"},
			}, "required": []any{"a", "b"}, "$defs": map[string]any{"b": map[string]any{"type": "object", "properties": map[string]any{"b": map[string]any{"type": "integer"}}, "required": []any{"b"}}}}},
		{"nested unions",
			`{"anyOf":[{"oneOf":[{"properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"string"}},"required":["b"]}]},{"properties":{"c":{"type":"string"}},"required":["c"]}]}`,
			map[string]any{"type": "object", "properties": map[string]any{
				"a": map[string]any{"type": "string"}, "b": map[string]any{"type": "string"}, "c": map[string]any{"type": "string"},
			}}},
		{"the top's own property wins", `{"properties":{"a":{"type":"string"}},"required":["a"],"anyOf":[{"properties":{"a":{"minLength":2}}}]}`,
			map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}, "required": []any{"a"}}},
	})
}

// schemaCase is a tool's input schema and the object ToolSchema makes
// of it.
type schemaCase struct {
	name   string
	schema string
	want   map[string]any
}

func checkToolSchemas(t *testing.T, tests []schemaCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := turn.ToolSchema([]byte(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestToolSchemaRefusesWhatCannotBeAnObject: each schema that cannot
// describe a tool's arguments is refused, saying why.
func TestToolSchemaRefusesWhatCannotBeAnObject(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type":"string"}`, "type is string, want object"},
		{`{"type":["string","null"]}`, "type is [string null], want object"},
		{`{"anyOf":[{"type":"string"},{"type":"null"}]}`, "anyOf has no branch an object can match"},
		{`{"type":"object","oneOf":[{"$ref":"#/$defs/n"}],"$defs":{"n":{"type":"null"}}}`, "oneOf has no branch an object can match"},
		{`{"allOf":[{"type":"object"},{"type":"null"}]}`, "allOf[1]: type is null, want object"},
		{`{"anyOf":[{"type":"null"},{"type":7}]}`, "anyOf[1]: type 7 is not a type name"},
		{`{"anyOf":[{"type":"null"},{"type":["object",{}]}]}`, "anyOf[1]: type [object map[]] is not a list of type names"},
		{`{"anyOf":[{"type":"null"},{"$ref":"#/$defs/gone"}]}`, `anyOf[1]: $ref "#/$defs/gone" names no schema in this one`},
		{`{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, "nests unions or references too deep"},
		{`{"oneOf":{"type":"object"}}`, "oneOf is not a list of schemas"},
		{`{"allOf":[7]}`, "allOf[0] is not a schema object"},
		{`{"anyOf":[{"$ref":"#/$defs/gone"}]}`, `anyOf[0]: $ref "#/$defs/gone" names no schema in this one`},
		{`{"$defs":{"a":{"anyOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, "nests unions or references too deep"},
	}
	for _, tt := range tests {
		// A reference to itself is followed until the depth bound, so
		// its message ends with the reason.
		if _, err := turn.ToolSchema([]byte(tt.schema)); err == nil || !strings.HasSuffix(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.schema, err, tt.want)
		}
	}
}
