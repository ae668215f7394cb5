package openai

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestToolSchemaIsAnObject: Chat Completions refuses function parameters
// that are not a JSON Schema of type object ("schema must be a JSON
// Schema of 'type: \"object\"', got 'type: \"None\"'"), or that have
// anyOf, oneOf, allOf, enum or not at the top level ("schema must have
// type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the
// top level"). Tools written by hand or served over MCP often leave the
// type out, or take one of several sets of arguments; such a schema goes
// as one object (turn.ToolSchema), which the tool still checks calls
// against its own.
func TestToolSchemaIsAnObject(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   map[string]any
	}{
		{"type left out", `{"properties":{"city":{"type":"string"}},"required":["city"]}`,
			map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []any{"city"}}},
		{"empty", `{}`, map[string]any{"type": "object", "properties": map[string]any{}}},
		{"already an object", `{"type":"object","properties":{}}`, map[string]any{"type": "object", "properties": map[string]any{}}},
		{"anyOf of objects", `{"anyOf":[{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},{"type":"object","properties":{"lat":{"type":"number"}},"required":["lat"]}]}`,
			map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}, "lat": map[string]any{"type": "number"}}}},
		{"an optional model (anyOf it and null)", `{"anyOf":[{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},{"type":"null"}]}`,
			map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []any{"city"}}},
		{"exclusions with not", `{"properties":{"a":{"type":"string"},"b":{"type":"string"}},"not":{"required":["a","b"]}}`,
			map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}, "b": map[string]any{"type": "string"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := basicRequest()
			req.Tools[0].InputSchema = []byte(tt.schema)
			tools := suite.Sent(t, req, "tools")["tools"].([]any)
			got := tools[0].(map[string]any)["function"].(map[string]any)["parameters"]
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestToolSchemaOfAnotherTypeNeverSent: a schema whose type is not
// object, or a union with no branch that is, cannot describe a
// function's arguments; it is refused before sending, as the Anthropic
// provider refuses it.
func TestToolSchemaOfAnotherTypeNeverSent(t *testing.T) {
	suite.BadRequests(t, ErrBadRequest, []transcripttest.BadRequest{
		{Name: "string", Edit: func(r *contract.ModelRequest) { r.Tools[0].InputSchema = []byte(`{"type":"string"}`) }},
		{Name: "array", Edit: func(r *contract.ModelRequest) { r.Tools[0].InputSchema = []byte(`[]`) }},
		{Name: "union of no object", Edit: func(r *contract.ModelRequest) {
			r.Tools[0].InputSchema = []byte(`{"oneOf":[{"type":"string"},{"type":"null"}]}`)
		}},
	})
}
