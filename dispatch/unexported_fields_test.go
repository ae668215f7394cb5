package dispatch

import (
	"context"
	"errors"
	"testing"
)

// unexportedPage is a type of an API client's, whose ids come as quoted
// numbers.
type unexportedPage struct {
	Total int64 `json:"total,string"`
}

type pagedArgs struct {
	Query string `json:"query"`
	// last is the tool's own state: encoding/json and the schema both
	// ignore an unexported field.
	last *unexportedPage
}

// TestUnexportedFieldsAreNotChecked: schemaDescribes walks every
// field, unexported ones too, and refuses a tool for a ",string" option
// in a type that only an unexported field holds, though neither
// encoding/json nor the derived schema looks at it; such a tool was made,
// and worked, before the check came.
func TestUnexportedFieldsAreNotChecked(t *testing.T) {
	tool, err := Func("search", "Searches.", func(_ context.Context, in pagedArgs) (string, error) {
		if in.last != nil {
			return "", errors.New("unexported state set from the arguments")
		}
		return in.Query, nil
	})
	if err != nil {
		t.Fatalf("Func refused a type whose only ,string option is behind an unexported field: %v", err)
	}
	out, err := tool.Call(context.Background(), []byte(`{"query":"q"}`))
	if err != nil || out.IsError || out.Content != "q" {
		t.Fatalf("call: %+v, %v", out, err)
	}
}
