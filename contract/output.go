package contract

import (
	"encoding/json"
	"fmt"
)

// DefaultOutputRetries is how many times a final answer that does not
// match the output schema goes back to the model when
// OutputSchema.MaxRetries is zero.
const DefaultOutputRetries = 2

// MaxOutputRetries bounds OutputSchema.MaxRetries.
const MaxOutputRetries = 10

// OutputSchema requires a run's final answer to be JSON matching Schema.
// Providers with a native structured-output mode are asked for it; the
// host validates each final answer and records its verdict in the
// ModelReplied signal, so replay never validates again. A bad answer goes
// back to the model with the reason, at most MaxRetries times; then the
// run faults with kind output.
type OutputSchema struct {
	// Name names the schema to providers; it must match [A-Za-z0-9_-]{1,64}.
	Name string `json:"name"`
	// Schema is a JSON Schema whose type is object.
	Schema json.RawMessage `json:"schema"`
	// MaxRetries is how many bad answers go back to the model; zero is
	// DefaultOutputRetries, negative is none.
	MaxRetries int `json:"max_retries,omitempty"`
}

// Retries returns how many bad answers go back to the model.
func (o OutputSchema) Retries() int {
	switch {
	case o.MaxRetries == 0:
		return DefaultOutputRetries
	case o.MaxRetries < 0:
		return 0
	}
	return o.MaxRetries
}

func (o OutputSchema) fieldErrors() []FieldError {
	var bad []FieldError
	if !ValidToolName(o.Name) {
		bad = append(bad, FieldError{Field: "Output.Name", Reason: fmt.Sprintf("%q must match [A-Za-z0-9_-]{1,64}", o.Name)})
	}
	var obj struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(o.Schema, &obj); err != nil {
		bad = append(bad, FieldError{Field: "Output.Schema", Reason: "must be a JSON object: " + err.Error()})
	} else if obj.Type != "object" {
		bad = append(bad, FieldError{Field: "Output.Schema", Reason: fmt.Sprintf("type must be object, got %v", obj.Type)})
	}
	if o.MaxRetries > MaxOutputRetries {
		bad = append(bad, FieldError{Field: "Output.MaxRetries", Reason: fmt.Sprintf("must be at most %d, got %d", MaxOutputRetries, o.MaxRetries)})
	}
	return bad
}
