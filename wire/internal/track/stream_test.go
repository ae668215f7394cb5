package track

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

func TestPartRest(t *testing.T) {
	tests := []struct {
		streamed, final, rest string
		ok                    bool
	}{
		{"", "Hello", "Hello", true},
		{"Hel", "Hello", "lo", true},
		{"Hello", "Hello", "", true},
		{"Howdy", "Hello", "", false},
		{"Hello, world", "Hello", "", false},
	}
	for _, tt := range tests {
		var p Part
		p.Append(tt.streamed)
		rest, ok := p.Rest(tt.final)
		if diff := cmp.Diff([]any{tt.rest, tt.ok}, []any{rest, ok}); diff != "" {
			t.Errorf("%q then %q: mismatch (-want +got):\n%s", tt.streamed, tt.final, diff)
		}
	}
}

// A turn's ids come from the Seq its deltas carry, or, re-projected
// without deltas, from the committed event before its completion; a retry
// names a new attempt.
func TestStreamNamesTurns(t *testing.T) {
	s := New("")
	s.Saw(contract.RunEvent{SessionID: "sess"})
	s.Committed(contract.RunEvent{Seq: 4, Kind: contract.EvRunStarted, RunID: "r"})
	s.Committed(contract.RunEvent{Seq: 5, Kind: contract.EvTurnCompleted})
	got := []string{s.SessionID, s.RunID, s.TurnID()}
	if !s.BeginTurn(s.CompletedSeq()) {
		t.Fatal("no turn opened")
	}
	got = append(got, s.TurnID())
	s.Retry()
	c, first := s.Call(contract.RunEvent{Index: 2})
	got = append(got, s.TurnID(), c.ID)
	if _, again := s.Call(contract.RunEvent{Index: 2}); first == again {
		t.Error("the second delta of a call reported as its first")
	}
	s.EndTurn()
	s.Committed(contract.RunEvent{Seq: 6, Kind: contract.EvRunSettled})
	want := []string{"sess", "r", "0", "4", "4-retry1", "call-4-2"}
	if diff := cmp.Diff(want, got); diff != "" || s.Running {
		t.Errorf("mismatch (-want +got):\n%s (running %v)", diff, s.Running)
	}
}
