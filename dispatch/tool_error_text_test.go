package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// nilPtrErr is an error type whose Error reads its receiver, so a nil
// *nilPtrErr returned as an error panics when its text is asked for.
type nilPtrErr struct{ msg string }

func (e *nilPtrErr) Error() string { return e.msg }

// TestSchedulerToolErrorText: whatever error a tool returns, the model
// gets an error outcome it can read: an error with no text, or a typed
// nil whose Error panics, is named as the tool's failure rather than
// delivered empty or taking the process down.
func TestSchedulerToolErrorText(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"no text", errors.New(""), `tool "fails" failed without saying why`},
		{"a typed nil", (*nilPtrErr)(nil), `tool "fails" failed with an error whose text could not be read: runtime error: invalid memory address or nil pointer dereference`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScheduler(Options{})
			defer closeScheduler(t, s)
			tool := toolOf(t, "fails", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
				return contract.ToolOutcome{}, tt.err
			})
			outs := newOutcomes(1)
			if err := s.Dispatch(context.Background(), Job{Call: call("c"), Tool: tool, Done: outs.done}); err != nil {
				t.Fatal(err)
			}
			want := Outcome{CallID: "c", Outcome: contract.ToolOutcome{Content: tt.want, IsError: true}}
			if diff := cmp.Diff(want, outs.next(t), ignoreDuration); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
