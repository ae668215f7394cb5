package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Types whose fields reach the schema through embedding. jsonschema-go
// lists every field reflect.VisibleFields gives, last one of a json name
// winning, while encoding/json keeps the shallowest field of a json name
// and drops two at one depth; where the two disagree the model is sent a
// schema the decoder does not follow.
type (
	embName struct {
		N string `json:"name"`
	}
	embX struct {
		X int `json:"x"`
	}
	// Its Name is hidden from reflect.VisibleFields by the outer Name,
	// but not from encoding/json, which goes by json names.
	embHidden struct {
		Name string `json:"inner_name"`
	}
	EmbText     string
	embUnexport struct {
		Name string `json:"name"`
	}
	EmbExported struct {
		Name string `json:"name"`
	}

	shadowedDeeper struct {
		Name int `json:"name"`
		embName
	}
	hiddenByGoName struct {
		embHidden
		Name int `json:"name"`
	}
	embeddedText struct {
		EmbText
	}
	embeddedUnexportedPointer struct {
		*embUnexport
	}
	nestedConflict struct {
		Opt shadowedDeeper `json:"opt"`
	}

	// Shapes where the two agree.
	plainEmbedded struct {
		embX
		Q string `json:"q"`
	}
	embeddedExportedPointer struct {
		*EmbExported
	}
	overriddenByName struct {
		embName
		N string `json:"name"` // hides embName.N from both
	}
	embOptionalName struct {
		ID   string `json:"id"`
		Name int    `json:"name,omitempty"`
	}
	embAged struct {
		Name string `json:"name"`
		Age  int    `json:"age"`
	}
	// Its Name, kept out of the json by "-", hides embAged.Name from the
	// schema on purpose; the schema refuses name, so the decoder never
	// sees the promoted field either.
	hiddenByDash struct {
		embAged
		Name string `json:"-"`
	}
	// The schema keeps the last field of a json name, Title, which is
	// the one encoding/json decodes; only Title makes name required.
	renamedAfterEmbedded struct {
		embOptionalName
		Title string `json:"name"`
	}
	// Both make name required, which the schema then lists twice.
	requiredTwiceAfterEmbedded struct {
		embX
		Z int `json:"x"`
	}
)

// String shows an embedded pointer's target in %+v.
func (e *EmbExported) String() string { return "EmbExported:" + e.Name }

// TestEmbeddedFieldsMatchTheDecoder: Func refuses an input type whose
// derived schema names other fields, or other types for them, than
// encoding/json decodes; and every type it takes decodes each property
// the schema lists into the tool's input.
func TestEmbeddedFieldsMatchTheDecoder(t *testing.T) {
	tests := []struct {
		name    string
		make    func() (Tool, error)
		args    string // schema-valid arguments, for the types taken
		want    string // the input the tool sees, %+v
		refused bool
	}{
		{name: "a deeper field of the same json name", make: funcOf[shadowedDeeper], refused: true},
		{name: "a promoted field hidden by its Go name only", make: funcOf[hiddenByGoName], refused: true},
		{name: "an embedded non-struct", make: funcOf[embeddedText], refused: true},
		{name: "an embedded pointer to an unexported struct", make: funcOf[embeddedUnexportedPointer], refused: true},
		{name: "a conflict in a nested struct", make: funcOf[nestedConflict], refused: true},
		{name: "a json name required by two fields", make: funcOf[requiredTwiceAfterEmbedded], refused: true},
		{name: "a plain embedded struct", make: funcOf[plainEmbedded], args: `{"x":1,"q":"a"}`, want: "{embX:{X:1} Q:a}"},
		{name: "an embedded pointer to an exported struct", make: funcOf[embeddedExportedPointer], args: `{"name":"a"}`, want: "EmbExported:a"},
		{name: "a field hidden from both by its names", make: funcOf[overriddenByName], args: `{"name":"a"}`, want: "{embName:{N:} N:a}"},
		{name: "a promoted field hidden by a json:\"-\" field of its Go name", make: funcOf[hiddenByDash], args: `{"age":2}`, want: "{embAged:{Name: Age:2} Name:}"},
		{name: "a promoted field of a json name declared before the outer one", make: funcOf[renamedAfterEmbedded], args: `{"id":"i","name":"a"}`, want: "{embOptionalName:{ID:i Name:0} Title:a}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, err := tt.make()
			if tt.refused {
				if !errors.Is(err, ErrInvalidTool) {
					var schema json.RawMessage
					if tool != nil {
						schema = tool.Descriptor().InputSchema
					}
					t.Fatalf("Func = %v, want ErrInvalidTool (schema sent: %s)", err, schema)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := tool.Call(context.Background(), json.RawMessage(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, out.Content); diff != "" {
				t.Errorf("input mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHiddenOnPurposeStaysHidden: the promoted field a json:"-" field
// hides is left out of the schema, so arguments naming it are refused
// before the tool runs rather than decoded into it.
func TestHiddenOnPurposeStaysHidden(t *testing.T) {
	tool, err := funcOf[hiddenByDash]()
	if err != nil {
		t.Fatal(err)
	}
	if props := string(tool.Descriptor().InputSchema); strings.Contains(props, `"name"`) {
		t.Errorf("schema %s names the hidden field", props)
	}
	out, err := tool.Call(context.Background(), json.RawMessage(`{"name":"x","age":2}`))
	if err != nil {
		t.Fatal(err)
	}
	if !out.IsError || !strings.Contains(out.Content, "name") {
		t.Errorf("outcome = %+v, want an error naming the unexpected name", out)
	}
}

// TestTwoFieldsOfOneNameAtOneDepth: encoding/json drops both fields, so
// the tool runs with neither set, but the schema requires the name
// (twice). go vet flags such a type written out, so it is made here.
func TestTwoFieldsOfOneNameAtOneDepth(t *testing.T) {
	embed := func(name string, inner reflect.Type) reflect.StructField {
		return reflect.StructField{Name: name, Type: inner, Anonymous: true}
	}
	otherX := reflect.StructOf([]reflect.StructField{{Name: "Y", Type: reflect.TypeFor[int](), Tag: `json:"x"`}})
	typ := reflect.StructOf([]reflect.StructField{embed("EmbX", reflect.TypeFor[embX]()), embed("EmbOtherX", otherX)})
	if err := schemaDescribes(typ, map[reflect.Type]bool{}); err == nil {
		t.Error("schemaDescribes took two fields of the json name x at one depth")
	}
}

// funcOf makes a tool whose result is its input as %+v.
func funcOf[In any]() (Tool, error) {
	return Func("t", "t", func(_ context.Context, in In) (string, error) { return fmt.Sprintf("%+v", in), nil })
}
