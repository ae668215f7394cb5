package turn_test

import "testing"

// TestToolSchemaDropsBranchesNoArgumentsMatch: a tool's arguments are
// always an object, so a union's branch of another type (Pydantic's
// Optional[Model] is anyOf the model and null) can never be the one
// taken: it is left out of the merge instead of refusing the tool. A
// type list holding object is taken as object, for the same reason.
func TestToolSchemaDropsBranchesNoArgumentsMatch(t *testing.T) {
	point := map[string]any{"type": "object", "properties": map[string]any{
		"x": map[string]any{"type": "number"}, "y": map[string]any{"type": "number"},
	}, "required": []any{"x", "y"}}
	checkToolSchemas(t, []schemaCase{
		{"Optional of a model",
			`{"anyOf":[{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]},{"type":"null"}]}`, point},
		{"Optional of a referenced model, with a title",
			`{"$defs":{"P":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]}},"anyOf":[{"$ref":"#/$defs/P"},{"type":"null"}],"title":"Args"}`,
			map[string]any{"type": "object", "properties": point["properties"], "required": point["required"], "title": "Args",
				"$defs": map[string]any{"P": point}}},
		{"oneOf with a string and an array",
			`{"oneOf":[{"type":"string"},{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]},{"type":"array","items":{}}]}`, point},
		{"a type list holding object",
			`{"anyOf":[{"type":["object","null"],"properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]},{"type":["string","integer"]}]}`, point},
		{"a top-level type list holding object",
			`{"type":["null","object"],"properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]}`, point},
		{"a nested union of no object",
			`{"anyOf":[{"anyOf":[{"type":"null"},{"type":"boolean"}]},{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]}]}`, point},
		{"a reference to a reference",
			`{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]}},"anyOf":[{"$ref":"#/$defs/A"}]}`,
			map[string]any{"type": "object", "properties": point["properties"], "required": point["required"],
				"$defs": map[string]any{"A": map[string]any{"$ref": "#/$defs/B"}, "B": point}}},
	})
}
