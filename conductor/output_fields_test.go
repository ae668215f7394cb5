package conductor_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
)

// outRaw keeps part of the answer as whatever JSON the model gave, as
// a typed tool's json.RawMessage argument takes any JSON value.
type outRaw struct {
	Data json.RawMessage `json:"data"`
}

// Output types whose fields reach the schema through embedding, where
// the derived schema and encoding/json may resolve a json name apart.
type (
	outCity struct {
		City string `json:"city"`
	}
	outSummary struct {
		Text string `json:"summary"`
	}
	// The schema takes the deeper string for "city", encoding/json the
	// outer int: no answer the schema passes decodes.
	outShadowed struct {
		Town int `json:"city"`
		outCity
	}
	// reflect.VisibleFields hides outSummary.Text behind the outer Text,
	// so the schema never asks for "summary", which encoding/json
	// decodes: the field is always zero.
	outHiddenByGoName struct {
		outSummary
		Text string `json:"headline"`
	}
	outPlain struct {
		outCity
		TempC float64 `json:"temp_c"`
	}
)

type outputFieldsCase struct {
	name   string
	schema func() (*contract.OutputSchema, error)
	decode func(contract.RunSnapshot) (any, error)
	answer string // schema-valid, for the types taken
	want   any
}

func fieldsCase[T any](name, answer string, want any) outputFieldsCase {
	return outputFieldsCase{
		name:   name,
		schema: func() (*contract.OutputSchema, error) { return conductor.OutputOf[T]("answer") },
		decode: func(s contract.RunSnapshot) (any, error) { return conductor.Output[T](s) },
		answer: answer,
		want:   want,
	}
}

// TestOutputOfEmbeddedFields: OutputOf refuses a type whose derived
// schema names other fields, or other types for them, than
// encoding/json decodes, and an answer to a type it takes decodes each
// property the schema lists.
func TestOutputOfEmbeddedFields(t *testing.T) {
	tests := []outputFieldsCase{
		fieldsCase[outShadowed]("a deeper field of the same json name", "", nil),
		fieldsCase[outHiddenByGoName]("a promoted field hidden by its Go name only", "", nil),
		fieldsCase[outPlain]("a plain embedded struct", `{"city":"Oslo","temp_c":-3}`, outPlain{outCity{City: "Oslo"}, -3}),
		fieldsCase[outRaw]("a json.RawMessage field holding an object", `{"data":{"x":1}}`, outRaw{json.RawMessage(`{"x":1}`)}),
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tt.schema()
			if tt.want == nil {
				if err == nil {
					t.Fatalf("OutputOf took the type; schema sent: %s", out.Schema)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			a := newAgent(t, contract.AgentConfig{Model: "m", Output: out}, testDeps(scripted.New(scripted.Reply{Text: tt.answer}), nil))
			snap, err := a.Submit(ctxT(t), conductor.Text("answer"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := tt.decode(snap)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(outPlain{})); diff != "" {
				t.Errorf("answer mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
