package turn_test

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"pgregory.net/rapid"

	"github.com/batonrt/baton/turn"
)

// TestToolSchemaNeverRefusesWhatTheToolTakes: the object sent for a union
// is looser than the tool's own schema, never stricter: arguments the
// tool's schema takes, the wire schema takes too, so the model is never
// steered away from a valid call. The branches close their properties,
// as schemas made from structs do: a branch open to any other property
// would take one of any type, which the wire schema narrows to the types
// the branches defining it give it (see ToolSchema). Branches of another
// type, which no arguments object matches, are left out, and so are the
// boolean schemas false, which matches nothing, and true, which matches
// anything.
func TestToolSchemaNeverRefusesWhatTheToolTakes(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	types := []string{"string", "number"}
	rapid.Check(t, func(t *rapid.T) {
		var branches []any
		objects := 0 // branches some arguments object matches
		for range rapid.IntRange(1, 3).Draw(t, "branches") {
			switch rapid.IntRange(0, 5).Draw(t, "kind") {
			case 0:
				// A branch no arguments object matches, as Optional's null.
				branches = append(branches, map[string]any{"type": rapid.SampledFrom([]any{"null", "string", []any{"array", "null"}}).Draw(t, "type")})
				continue
			case 1:
				branches = append(branches, false)
				continue
			case 2:
				branches = append(branches, true)
				objects++
				continue
			}
			objects++
			props := map[string]any{}
			var required []any
			for _, n := range names {
				if rapid.Bool().Draw(t, "has "+n) {
					props[n] = map[string]any{"type": rapid.SampledFrom(types).Draw(t, "type of "+n)}
					if rapid.Bool().Draw(t, "requires "+n) {
						required = append(required, n)
					}
				}
			}
			branches = append(branches, map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false})
		}
		key := rapid.SampledFrom([]string{"anyOf", "oneOf", "allOf"}).Draw(t, "union")
		union := map[string]any{key: branches}
		args := map[string]any{}
		for _, n := range names {
			if rapid.Bool().Draw(t, "sends "+n) {
				args[n] = rapid.SampledFrom([]any{"x", 1.0}).Draw(t, "value of "+n)
			}
		}
		raw, err := json.Marshal(union)
		if err != nil {
			t.Fatal(err)
		}
		wire, err := turn.ToolSchema(raw)
		// Only a union no object matches is refused: anyOf or oneOf of no
		// object branch, or allOf with a branch of another type.
		refused := objects == 0 || key == "allOf" && objects < len(branches)
		if refused != (err != nil) {
			t.Fatalf("%s: refused %v, want %v: %v", raw, err != nil, refused, err)
		}
		if refused {
			return
		}
		if validates(t, raw, args) && !validates(t, mustMarshal(t, wire), args) {
			t.Fatalf("%s takes %v, the wire schema %s does not", raw, args, mustMarshal(t, wire))
		}
	})
}

func validates(t *rapid.T, schema []byte, v map[string]any) bool {
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.Validate(v) == nil
}

func mustMarshal(t *rapid.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
