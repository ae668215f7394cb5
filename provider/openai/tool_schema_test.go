package openai

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestToolSchemaIsAnObject: Chat Completions refuses function parameters
// that are not a JSON Schema of type object ("schema must be a JSON
// Schema of 'type: \"object\"', got 'type: \"None\"'"). Tools written by
// hand or served over MCP often leave the type out; it is filled in.
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
// object cannot describe a function's arguments; it is refused before
// sending, as the Anthropic provider refuses it.
func TestToolSchemaOfAnotherTypeNeverSent(t *testing.T) {
	suite.BadRequests(t, ErrBadRequest, []transcripttest.BadRequest{
		{Name: "string", Edit: func(r *contract.ModelRequest) { r.Tools[0].InputSchema = []byte(`{"type":"string"}`) }},
		{Name: "array", Edit: func(r *contract.ModelRequest) { r.Tools[0].InputSchema = []byte(`[]`) }},
	})
}
