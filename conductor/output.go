package conductor

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// OutputOf returns an output schema for answers of type T, derived as
// typed tools derive theirs (json tags name the fields, omitempty makes
// one optional, a jsonschema tag describes it). T must be a struct or a
// map with string keys.
func OutputOf[T any](name string) (*contract.OutputSchema, error) {
	// The schema vets answers that Output decodes with encoding/json,
	// so the two must agree on T's fields, as for a typed tool's input.
	s, err := dispatch.DerivedSchema(reflect.TypeFor[T]())
	if err != nil {
		return nil, fmt.Errorf("conductor: output schema of %s: %w", name, err)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("conductor: output schema of %s: %w", name, err)
	}
	return &contract.OutputSchema{Name: name, Schema: raw}, nil
}

// ErrNoAnswer is returned by Output for a run that did not settle with
// an answer.
var ErrNoAnswer = errors.New("conductor: no final answer")

// Output decodes the final answer of a settled run as T: the text of the
// newest assistant turn, which the run's output schema has vetted.
func Output[T any](snap contract.RunSnapshot) (T, error) {
	var v T
	if snap.Phase != contract.PhaseSettled {
		if snap.Err != nil {
			return v, fmt.Errorf("%w: run %s: %w", ErrNoAnswer, snap.Phase, snap.Err)
		}
		return v, fmt.Errorf("%w: run is %s", ErrNoAnswer, snap.Phase)
	}
	turns := snap.History.Turns()
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].Role == contract.RoleAssistant {
			if err := json.Unmarshal([]byte(answerJSON(turns[i].Text())), &v); err != nil {
				return v, fmt.Errorf("conductor: decode final answer: %w", err)
			}
			return v, nil
		}
	}
	return v, ErrNoAnswer
}

// outputCheck validates final answers against a run's output schema.
type outputCheck struct{ schema *jsonschema.Resolved }

func newOutputCheck(out *contract.OutputSchema) (*outputCheck, error) {
	if out == nil {
		return nil, nil
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(out.Schema, &s); err != nil {
		return nil, err
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	return &outputCheck{schema: r}, nil
}

// verdict returns why a final reply does not match, or "" when it does
// or is not final (it calls tools).
func (c *outputCheck) verdict(reply contract.Turn) string {
	if c == nil || len(reply.Calls()) > 0 {
		return ""
	}
	var v any
	if err := json.Unmarshal([]byte(answerJSON(reply.Text())), &v); err != nil {
		return "the answer is not JSON (" + err.Error() + ")"
	}
	if err := c.schema.Validate(v); err != nil {
		return err.Error()
	}
	return ""
}

// answerJSON strips the code fence models like to put around JSON.
func answerJSON(text string) string {
	s := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(s, "```"); ok {
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:]
		}
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "```"))
	}
	return s
}
