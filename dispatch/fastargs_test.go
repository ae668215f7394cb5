package dispatch

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"pgregory.net/rapid"
)

type flatIn struct {
	Text  string  `json:"text"`
	Count int     `json:"count"`
	Ratio float64 `json:"ratio,omitempty"`
	Loud  bool    `json:"loud,omitempty"`
}

// jsonValue draws JSON text that is often but not always a valid call.
func jsonValue() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		keys := []string{"text", "count", "ratio", "loud", "Text", "other"}
		vals := []string{`"hi"`, `""`, `1`, `-3`, `1.5`, `1e2`, `true`, `null`, `[]`, `{}`, `"1"`, `99999999999999999999`}
		if rapid.IntRange(0, 9).Draw(t, "shape") == 0 {
			return rapid.SampledFrom([]string{``, ` `, `[]`, `"x"`, `null`, `{`, `{"text":"a",}`}).Draw(t, "odd")
		}
		var parts []string
		if rapid.Bool().Draw(t, "mostly valid") {
			parts = append(parts, `"text":`+rapid.SampledFrom([]string{`"hi"`, `""`, `"a\"b"`}).Draw(t, "text"), `"count":`+rapid.SampledFrom([]string{`0`, `-3`, `42`}).Draw(t, "count"))
		}
		for range rapid.IntRange(0, 3).Draw(t, "fields") {
			parts = append(parts, `"`+rapid.SampledFrom(keys).Draw(t, "key")+`":`+rapid.SampledFrom(vals).Draw(t, "value"))
		}
		return "{" + strings.Join(parts, ",") + "}"
	})
}

// Whatever the flat check accepts, the schema accepts too and decodes to
// the same value: the check only ever saves the schema's walk.
func TestFlatArgsAgreeWithTheSchema(t *testing.T) {
	schema, err := jsonschema.For[flatIn](nil)
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	flat := flatArgsFor(reflect.TypeFor[flatIn](), schema)
	if flat == nil {
		t.Fatal("a struct of scalars has no flat check")
	}
	accepted := 0
	rapid.Check(t, func(t *rapid.T) {
		args := jsonValue().Draw(t, "args")
		var fast flatIn
		if !flat.decode(json.RawMessage(args), &fast) {
			return
		}
		accepted++
		var slow flatIn
		if err := decodeArgs(resolved, json.RawMessage(args), &slow); err != nil {
			t.Fatalf("%s: the flat check accepted what the schema refuses: %v", args, err)
		}
		if diff := cmp.Diff(slow, fast); diff != "" {
			t.Fatalf("%s: mismatch (-schema +flat):\n%s", args, diff)
		}
	})
	if accepted == 0 {
		t.Error("the flat check accepted nothing")
	}
}

// Inputs the flat check cannot vouch for have none.
func TestFlatArgsOnlyForFlatStructs(t *testing.T) {
	type nested struct {
		In flatIn `json:"in"`
	}
	type withSlice struct {
		Tags []string `json:"tags"`
	}
	type withPointer struct {
		N *int `json:"n"`
	}
	for name, typ := range map[string]reflect.Type{
		"nested":  reflect.TypeFor[nested](),
		"slice":   reflect.TypeFor[withSlice](),
		"pointer": reflect.TypeFor[withPointer](),
		"map":     reflect.TypeFor[map[string]string](),
	} {
		schema, err := jsonschema.ForType(typ, nil)
		if err != nil {
			t.Fatal(err)
		}
		if flatArgsFor(typ, schema) != nil {
			t.Errorf("%s: a flat check for %s", name, typ)
		}
	}
}
