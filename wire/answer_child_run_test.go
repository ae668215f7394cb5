package wire

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// A delegated run's call is decided or answered over the wire as the
// thread's events last showed it asked: by the child's run and turn as
// well as the call's id, as the run's own calls are. A model reuses call
// ids from turn to turn (call_0 in every reply), so a decision read for
// the child's call of one turn must not be taken by the call of the id
// the child asks in its next turn, nor in a later run; and an AI SDK
// client's answer whose input is not the asked call's arguments answers
// an earlier call of the id, not this one.
func TestAnswerToAChildNamesItsRunAndTurn(t *testing.T) {
	call := func(args string) *contract.ToolCall {
		return &contract.ToolCall{ID: "q1", Name: "shell", Arguments: args}
	}
	child := []string{"c1"}
	events := []contract.RunEvent{
		{Kind: contract.EvTurnStarted, Subflow: child, RunID: "run_kid", Round: 1},
		{Kind: contract.EvApprovalRequested, Subflow: child, RunID: "run_kid", Call: call(`{"command":"ls"}`)},
		{Kind: contract.EvApprovalResolved, Subflow: child, RunID: "run_kid", Call: call(`{"command":"ls"}`)},
		{Kind: contract.EvTurnStarted, Subflow: child, RunID: "run_kid", Round: 2},
		{Kind: contract.EvTurnStarted, Subflow: []string{"c2"}, RunID: "run_other", Round: 5},
		{Kind: contract.EvApprovalRequested, Subflow: child, RunID: "run_kid", Call: call(`{"command":"rm -rf ~"}`)},
	}
	snap := contract.RunSnapshot{SessionID: "s", RunID: "run_root", Turns: 1, Phase: contract.PhaseAwaitingTools}
	type got struct {
		RunID string
		Turn  int
		Path  []string
	}
	tests := []struct {
		name  string
		input string
		want  []got
	}{
		{"no input", "", []got{{"run_kid", 2, child}}},
		{"the asked call's input", `{"command":"rm -rf ~"}`, []got{{"run_kid", 2, child}}},
		{"an earlier call's input", `{"command":"ls"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answers := []clientAnswer{{callID: "c1/q1", text: "yes", input: json.RawMessage(tt.input)}}
			steps, err := planAnswers(snap, answers, childAsks(events))
			if err != nil {
				t.Fatal(err)
			}
			var gotSteps []got
			for _, st := range steps {
				gotSteps = append(gotSteps, got{st.runID, st.turn, st.path})
			}
			if diff := cmp.Diff(tt.want, gotSteps); diff != "" {
				t.Errorf("planned answers mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
