package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
	"github.com/google/jsonschema-go/jsonschema"
)

// checkedName refuses "bad" the way a type validating itself does:
// encoding/json calls UnmarshalJSON, so the tool never sees "bad".
type checkedName string

func (n *checkedName) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "bad" {
		return errors.New("name must not be bad")
	}
	*n = checkedName(strings.ToLower(s))
	return nil
}

// runTyped calls a typed tool with args and reports whether fn ran, with
// what, and the outcome.
func runTyped[In any](t *testing.T, args string) (ran bool, got In, out contract.ToolOutcome) {
	t.Helper()
	tool, err := Func("t", "t", func(_ context.Context, in In) (string, error) {
		ran, got = true, in
		return "ok", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err = tool.Call(context.Background(), json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	return ran, got, out
}

// The flat decoder sets a scalar field directly, skipping the field
// type's UnmarshalJSON, which the general way (encoding/json) calls:
// a value the type refuses reaches the tool, and one it normalises
// arrives as sent.
func TestFlatArgsHonourUnmarshalJSON(t *testing.T) {
	type in struct {
		Name checkedName `json:"name"`
	}
	if ran, got, out := runTyped[in](t, `{"name":"bad"}`); ran {
		t.Errorf(`{"name":"bad"} reached the tool as %+v (outcome %q); UnmarshalJSON refuses it`, got, out.Content)
	}
	if _, got, _ := runTyped[in](t, `{"name":"ABC"}`); got.Name != "abc" {
		t.Errorf(`{"name":"ABC"} decoded to %q, encoding/json gives "abc"`, got.Name)
	}
}

// slog.Level is an int whose derived schema is a string (jsonschema-go
// maps it so, since it marshals as "INFO"): the schema sent to the model
// refuses a number, but the flat decoder takes one.
func TestFlatArgsFollowTheSchemaType(t *testing.T) {
	type in struct {
		Level slog.Level `json:"level"`
	}
	if ran, got, _ := runTyped[in](t, `{"level":4}`); ran {
		t.Errorf(`{"level":4} reached the tool as %+v; the schema wants a string`, got)
	}
	if ran, got, out := runTyped[in](t, `{"level":"WARN"}`); !ran || got.Level != slog.LevelWarn {
		t.Errorf(`{"level":"WARN"}: ran %v, got %+v, outcome %q`, ran, got, out.Content)
	}
}

// An embedded struct with a json name is one field to encoding/json,
// but jsonschema-go flattens its fields into the parent's schema: the
// model is told to send {"x":1}, the schema accepts it, and the tool runs
// with X zero, its required argument silently dropped.
type embeddedInner struct {
	X int `json:"x"`
}

func TestTaggedEmbeddedStruct(t *testing.T) {
	type in struct {
		embeddedInner `json:"in"`
	}
	tool, err := Func("t", "t", func(_ context.Context, v in) (string, error) { return fmt.Sprint(v.X), nil })
	if err != nil {
		return // refusing the type is a fix too
	}
	out, _ := tool.Call(context.Background(), json.RawMessage(`{"x":1}`))
	if !out.IsError && out.Content != "1" {
		t.Errorf(`schema-valid {"x":1} ran the tool with X=%s (schema %s)`, out.Content, tool.Descriptor().InputSchema)
	}
	out, _ = tool.Call(context.Background(), json.RawMessage(`{"in":{"x":1}}`))
	if out.Content != "1" {
		t.Errorf(`{"in":{"x":1}}, which encoding/json decodes, gave %q (schema %s)`, out.Content, tool.Descriptor().InputSchema)
	}
}

// A json.RawMessage field takes any JSON to encoding/json, but the
// derived schema describes it as []byte: an array of integers 0..255 or
// null. An object is refused, and an array arrives as its JSON text.
func TestRawMessageField(t *testing.T) {
	type in struct {
		Data json.RawMessage `json:"data"`
	}
	ran, got, out := runTyped[in](t, `{"data":{"k":1}}`)
	if !ran || string(got.Data) != `{"k":1}` {
		t.Errorf(`{"data":{"k":1}}: ran %v, data %q, outcome %q`, ran, got.Data, out.Content)
	}
	tool, _ := Func("t", "t", func(context.Context, in) (string, error) { return "", nil })
	var schema jsonschema.Schema
	if err := json.Unmarshal(tool.Descriptor().InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	if p := schema.Properties["data"]; p.Items != nil {
		t.Errorf("data is described to the model as an array of bytes: %s", tool.Descriptor().InputSchema)
	}
}

// With the ",string" option encoding/json wants the number quoted, but
// the derived schema says integer: the schema refuses "5", the decoder
// refuses 5, and no call can succeed.
func TestStringOptionField(t *testing.T) {
	type in struct {
		N int `json:"n,string"`
	}
	if _, err := Func("t", "t", func(context.Context, in) (string, error) { return "", nil }); err != nil {
		return // refusing the type is a fix too
	}
	r5, _, o5 := runTyped[in](t, `{"n":5}`)
	rq, _, oq := runTyped[in](t, `{"n":"5"}`)
	if !r5 && !rq {
		t.Errorf("no argument reaches the tool: 5 gives %q, \"5\" gives %q", o5.Content, oq.Content)
	}
}

// Start runs before the tool; a call cancelled while Start runs is
// answered "cancelled" at once, and its tool must not then run: the
// model and the record say it did not.
func TestToolDoesNotRunAfterCancelDuringStart(t *testing.T) {
	s := NewScheduler(Options{Grace: time.Millisecond})
	defer closeScheduler(t, s)
	var ran atomic.Bool
	tool := toolOf(t, "t", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		ran.Store(true) // a side effect that does not look at ctx
		return contract.ToolOutcome{Content: "did it"}, nil
	})
	inStart, leaveStart := make(chan struct{}), make(chan struct{})
	start := func(context.Context) error {
		close(inStart)
		<-leaveStart // a slow durable write, or a before_tool hook
		return nil
	}
	outs := newOutcomes(1)
	if err := s.Dispatch(context.Background(), Job{Call: call("c"), Tool: tool, Start: start, Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	<-inStart
	s.Cancel("c")
	if o := outs.next(t); !o.Cancelled {
		t.Fatalf("outcome %+v, want cancelled", o)
	}
	close(leaveStart)
	closeScheduler(t, s) // waits for the worker
	if ran.Load() {
		t.Error("the tool ran after its call was answered as cancelled")
	}
}

// capOutput replaces bytes that are not UTF-8 before it cuts, so binary
// output (every byte 0x80..0xBF looks like a continuation) neither backs
// the cut up to nothing, leaving the model only the marker, nor grows
// past the cap when the replacement characters, three bytes each, stand
// in for single bytes.
func TestCapOutputKeepsInvalidUTF8Prefix(t *testing.T) {
	content := strings.Repeat("a\x80", 1000)
	got := capOutput(contract.ToolOutcome{Content: content}, 500)
	if len(got.Content) > 500 || !utf8.ValidString(got.Content) || !got.Truncated {
		t.Fatalf("content is %d bytes, valid UTF-8 %v, truncated %v; want at most the cap of 500, valid, truncated", len(got.Content), utf8.ValidString(got.Content), got.Truncated)
	}
	if !strings.HasPrefix(got.Content, strings.Repeat("a\uFFFD", 100)) {
		t.Errorf("kept %q, want at least 100 of the pairs", got.Content)
	}
}
