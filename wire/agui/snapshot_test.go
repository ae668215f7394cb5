package agui

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/track"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// A client whose model call died with the process that streamed it
// (Rejoin, not held) gets, right after RUN_STARTED, a MESSAGES_SNAPSHOT
// of what the session holds under the ids the stream gave it: its own
// input under its id, each reply's reasoning, text and calls (of the
// attempt that answered, not of the one that broke), the results after
// their calls, and none of the dead call. A dead call that reasoned, in a session that holds no
// reasoning yet, leaves an empty reasoning message under the id the
// call made again reasons in, which the client's official fold needs to
// drop the dead reasoning.
func TestRejoinSendsWhatTheSessionHolds(t *testing.T) {
	input := func(e *contract.RunEvent) { e.ClientIDs, e.Text = []string{"u1"}, "go" }
	retried := retriedRun()
	retried[0] = wt.With(retried[0], input)
	tests := []struct {
		name string
		had  []contract.RunEvent
		seq  uint64
		mark track.Mark
		want []Message
	}{
		{"after a tool round", retried[:14], 6, track.Mark{Thinking: -1, Text: 2}, []Message{
			{ID: "u1", Role: "user", Content: "go"},
			{ID: "r1-retry1", Role: "reasoning", Content: "plan"},
			{ID: "m1-retry1", Role: "assistant", ToolCalls: []ToolCall{
				{ID: "c1", Type: "function", Function: Function{Name: "f", Arguments: `{"a":1}`}},
				{ID: "c2", Type: "function", Function: Function{Name: "g", Arguments: `{}`}},
			}},
			{ID: "t-c1", Role: "tool", Content: "1", ToolCallID: "c1"},
			{ID: "t-c2", Role: "tool", Content: "2", ToolCallID: "c2"},
		}},
		{"in the first call", []contract.RunEvent{wt.With(wt.Ev(1, 0, contract.EvRunStarted), input)}, 1, track.Mark{Attempt: 1, Thinking: 4, Text: -1}, []Message{
			{ID: "u1", Role: "user", Content: "go"},
			{ID: "r1-retry1", Role: "reasoning"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProjector("s1")
			for _, ev := range tt.had {
				p.Project(ev)
			}
			p.Rejoin(tt.seq, tt.mark, false, Session{Had: tt.had})
			out := p.Resume()
			if len(out) < 2 || out[0].Type != RunStarted || out[1].Type != MessagesSnapshot {
				t.Fatalf("Resume sent %v, want RUN_STARTED then MESSAGES_SNAPSHOT", out)
			}
			if diff := cmp.Diff(tt.want, out[1].Messages); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// The snapshot a rejoining client gets keeps the input it posted that
// the session took after the client's place (Later) or holds queued,
// under the client's ids; queued input without an id is not the
// client's. Without them the snapshot takes the client's own messages
// off, and nothing adds them again.
func TestRejoinKeepsTheClientsInput(t *testing.T) {
	had := []contract.RunEvent{wt.With(wt.Ev(1, 0, contract.EvRunStarted), func(e *contract.RunEvent) { e.ClientIDs, e.Text = []string{"u1"}, "go" })}
	later := []contract.RunEvent{wt.With(wt.Ev(3, 0, contract.EvSteeringApplied), func(e *contract.RunEvent) { e.ClientIDs, e.Text = []string{"u2"}, "faster" })}
	withID := contract.UserText("then stop")
	withID.ClientID = "u3"
	queued := []contract.QueuedInput{{Kind: contract.InputFollowUp, Turns: []contract.Turn{withID, contract.UserText("not the client's")}}}
	p := NewProjector("s1")
	for _, ev := range had {
		p.Project(ev)
	}
	p.Rejoin(2, track.Mark{Thinking: -1, Text: 3}, false, Session{Had: had, Later: later, Queued: queued})
	out := p.Resume()
	if len(out) < 2 || out[1].Type != MessagesSnapshot {
		t.Fatalf("Resume sent %v, want RUN_STARTED then MESSAGES_SNAPSHOT", out)
	}
	want := []Message{
		{ID: "u1", Role: "user", Content: "go"},
		{ID: "u2", Role: "user", Content: "faster"},
		{ID: "u3", Role: "user", Content: "then stop"},
	}
	if diff := cmp.Diff(want, out[1].Messages); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
