package anthropic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestToolSchemaUnionIsAnObject: the Messages API refuses a tool whose
// input_schema has anyOf, oneOf or allOf at the top level ("input_schema
// does not support oneOf, allOf, or anyOf at the top level"), which a sum
// type or an MCP tool taking one of several sets of arguments has. When
// every branch is an object, one object with every branch's properties
// goes instead (turn.ToolSchema); the tool still checks calls against its
// own schema.
func TestToolSchemaUnionIsAnObject(t *testing.T) {
	req := basicRequest()
	req.Tools[0].InputSchema = []byte(`{"description":"A place.","oneOf":[{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},{"type":"object","properties":{"lat":{"type":"number"},"lon":{"type":"number"}},"required":["lat","lon"]}]}`)
	want := map[string]any{"type": "object", "description": "A place.", "properties": map[string]any{
		"city": map[string]any{"type": "string"}, "lat": map[string]any{"type": "number"}, "lon": map[string]any{"type": "number"},
	}}
	tools := suite.Sent(t, req, "tools")["tools"].([]any)
	if diff := cmp.Diff(want, tools[0].(map[string]any)["input_schema"]); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestToolSchemaUnionOfOtherTypesNeverSent: a union with no branch that
// is an object cannot be an input_schema; the request is refused before
// it is sent.
func TestToolSchemaUnionOfOtherTypesNeverSent(t *testing.T) {
	suite.BadRequests(t, ErrBadRequest, []transcripttest.BadRequest{
		{Name: "string or null", Edit: func(r *contract.ModelRequest) {
			r.Tools[0].InputSchema = []byte(`{"anyOf":[{"type":"string"},{"type":"null"}]}`)
		}},
	})
}
