package dispatch

import (
	"context"
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
	agreeWithSchema[flatIn](t, jsonValue())
}

// kindsIn has a field of every scalar kind the flat check decodes.
type kindsIn struct {
	S   string  `json:"s"`
	B   bool    `json:"b,omitempty"`
	I   int     `json:"i,omitempty"`
	I8  int8    `json:"i8,omitempty"`
	I64 int64   `json:"i64,omitempty"`
	U   uint    `json:"u,omitempty"`
	U16 uint16  `json:"u16,omitempty"`
	F32 float32 `json:"f32,omitempty"`
	F64 float64 `json:"f64,omitempty"`
	Raw string  // no tag: named by the field
}

// kindsValue draws JSON text close to the grammar's and the kinds' edges:
// escapes, non-ASCII and invalid UTF-8, white space, number forms and
// values past a field's range.
func kindsValue() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		keys := []string{"s", "b", "i", "i8", "i64", "u", "u16", "f32", "f64", "Raw", "raw", `s\u0020`, "\u0073", "é"}
		vals := []string{
			`"x"`, `""`, `"a\"b"`, `"\u00e9"`, `"é"`, "\"\xff\"", "\"a\tb\"", `"\ud83d"`, "\"\x7f\"",
			`true`, `false`, `tru`, `truex`, `null`, `nul`,
			`0`, `-0`, `1`, `-1`, `01`, `1.`, `.5`, `1.5`, `-1.5e3`, `1e2`, `1E+2`, `2e-1`, `127`, `128`, `-128`, `-129`, `65535`, `65536`,
			`9223372036854775807`, `9223372036854775808`, `18446744073709551616`, `3.5e38`, `1e400`, `-`, `[]`, `{}`,
		}
		ws := []string{"", " ", "\n\t", "\r"}
		if rapid.IntRange(0, 9).Draw(t, "shape") == 0 {
			return rapid.SampledFrom([]string{``, ` `, `[]`, `"x"`, `null`, `{`, `{}`, ` {} `, `{"s":"a",}`, `{"s":"a"}x`, `{"s":"a"}}`, `{"s" "a"}`, `{,"s":"a"}`}).Draw(t, "odd")
		}
		var parts []string
		if rapid.Bool().Draw(t, "mostly valid") {
			parts = append(parts, `"s":"hi"`, `"Raw":"x"`)
		}
		for range rapid.IntRange(0, 4).Draw(t, "fields") {
			w := func(label string) string { return rapid.SampledFrom(ws).Draw(t, label) }
			parts = append(parts, w("before key")+`"`+rapid.SampledFrom(keys).Draw(t, "key")+`"`+w("before colon")+":"+w("after colon")+rapid.SampledFrom(vals).Draw(t, "value")+w("after value"))
		}
		order := rapid.Permutation(parts).Draw(t, "order")
		return rapid.SampledFrom(ws).Draw(t, "lead") + "{" + strings.Join(order, ",") + "}" + rapid.SampledFrom(ws).Draw(t, "trail")
	})
}

func TestFlatArgsAgreeWithTheSchemaOnEveryKind(t *testing.T) {
	agreeWithSchema[kindsIn](t, kindsValue())
}

// agreeWithSchema checks that whatever In's flat check accepts of gen's
// texts the general way accepts too, decoding it to the same value.
func agreeWithSchema[In any](t *testing.T, gen *rapid.Generator[string]) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	flat := flatArgsFor(reflect.TypeFor[In](), schema)
	if flat == nil {
		t.Fatal("a struct of scalars has no flat check")
	}
	accepted := 0
	// Most drawn texts are refused, and -short draws only 20 a check:
	// a few more checks, while none was accepted, keep the guard below
	// from failing on a run of refusals (one in 25 did).
	for round := 0; accepted == 0 && round < 5 && !t.Failed(); round++ {
		checkAgreement[In](t, gen, resolved, flat, &accepted)
	}
	if accepted == 0 {
		t.Error("the flat check accepted nothing")
	}
}

// checkAgreement is one rapid check of agreeWithSchema's property,
// counting the texts the flat check accepted.
func checkAgreement[In any](t *testing.T, gen *rapid.Generator[string], resolved *jsonschema.Resolved, flat *flatArgs, accepted *int) {
	rapid.Check(t, func(t *rapid.T) {
		args := gen.Draw(t, "args")
		var fast In
		if !flat.decode(args, &fast) {
			return
		}
		(*accepted)++
		var slow In
		if err := decodeArgs(resolved, json.RawMessage(args), &slow); err != nil {
			t.Fatalf("%s: the flat check accepted what the schema refuses: %v", args, err)
		}
		if diff := cmp.Diff(slow, fast); diff != "" {
			t.Fatalf("%s: mismatch (-schema +flat):\n%s", args, diff)
		}
	})
}

// The calls models make go the flat way, white space and all; what it
// leaves to the general way is what it cannot decode byte for byte.
func TestFlatArgsDecodeCommonCalls(t *testing.T) {
	schema, err := jsonschema.For[kindsIn](nil)
	if err != nil {
		t.Fatal(err)
	}
	flat := flatArgsFor(reflect.TypeFor[kindsIn](), schema)
	for _, tc := range []struct {
		args string
		ok   bool
		want kindsIn
	}{
		{`{"s":"hi","Raw":"r"}`, true, kindsIn{S: "hi", Raw: "r"}},
		{" {\n  \"s\" : \"é\",\n  \"Raw\": \"\", \"b\": true, \"i\": -7, \"i8\": -128, \"u16\": 65535, \"f32\": 1.5, \"f64\": -2e3 }\n", true,
			kindsIn{S: "é", B: true, I: -7, I8: -128, U16: 65535, F32: 1.5, F64: -2e3}},
		{`{"s":"a","Raw":"r","s":"b"}`, true, kindsIn{S: "b", Raw: "r"}},
		{`{"s":"hi"}`, false, kindsIn{}},                    // Raw is required
		{`{"s":"h\u0069","Raw":"r"}`, false, kindsIn{}},     // an escape
		{`{"s":"hi","Raw":"r","i8":128}`, false, kindsIn{}}, // out of range
		{`{"s":"hi","Raw":"r","u":-1}`, false, kindsIn{}},   // negative
		{`{"s":"hi","Raw":"r","i":1.0}`, false, kindsIn{}},  // not an integer to encoding/json
		{`{"s":"hi","Raw":"r","b":null}`, false, kindsIn{}}, // null
		{`{"s":"hi","Raw":"r","x":1}`, false, kindsIn{}},    // unknown key
		{`{"S":"hi","Raw":"r"}`, false, kindsIn{}},          // a key named by its case only
		{`{"s":"hi","Raw":"r"} {}`, false, kindsIn{}},       // trailing text
	} {
		var got kindsIn
		ok := flat.decode(tc.args, &got)
		if ok != tc.ok {
			t.Errorf("%s: decode = %v, want %v", tc.args, ok, tc.ok)
			continue
		}
		if diff := cmp.Diff(tc.want, got); ok && diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tc.args, diff)
		}
	}
}

// A typed tool's call decodes its arguments without allocating: string
// values are parts of the arguments, and nothing of encoding/json's runs.
func TestFlatArgsAllocations(t *testing.T) {
	schema, err := jsonschema.For[flatIn](nil)
	if err != nil {
		t.Fatal(err)
	}
	flat := flatArgsFor(reflect.TypeFor[flatIn](), schema)
	args := `{"text":"turn 3 call 0","count":3}`
	var in flatIn
	if n := testing.AllocsPerRun(100, func() {
		if !flat.decode(args, &in) {
			t.Fatal("refused")
		}
	}); n > 0 {
		t.Errorf("%v allocations a decode, want none", n)
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

// The scheduler hands a typed tool the call's arguments as they are
// kept, and the tool decodes them without a copy: a call of a tool that
// echoes its text allocates only the input the decoder fills through
// reflection.
func TestTypedToolTakesTheCallsText(t *testing.T) {
	tool := MustFunc("echo", "Echoes its text.", func(_ context.Context, in flatIn) (string, error) { return in.Text, nil })
	tc, ok := tool.(textCaller)
	if !ok {
		t.Fatal("a Func tool is not a textCaller: the scheduler would copy its arguments")
	}
	args := `{"text":"turn 3 call 0","count":3}`
	if n := testing.AllocsPerRun(100, func() {
		if out, err := tc.callText(context.Background(), args); err != nil || out.Content != "turn 3 call 0" {
			t.Fatalf("callText = %+v, %v", out, err)
		}
	}); n > 1 {
		t.Errorf("%v allocations a call, want 1", n)
	}
}
