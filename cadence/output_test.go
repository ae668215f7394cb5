package cadence_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// TestOutputRetries: a final answer the host marked as not matching the
// output schema goes back to the model with the reason, MaxRetries times;
// the next bad one faults the run with kind output, a good one settles it.
func TestOutputRetries(t *testing.T) {
	out := &contract.OutputSchema{Name: "answer", Schema: []byte(`{"type":"object"}`), MaxRetries: 2}
	bad := contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("not json")}}, OutputError: "not JSON"}
	good := contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock(`{"a":1}`)}}}
	tests := []struct {
		name    string
		replies []contract.ModelReplied
		phase   contract.Phase
		notes   int
	}{
		{"good at once", []contract.ModelReplied{good}, contract.PhaseSettled, 0},
		{"good after two bad", []contract.ModelReplied{bad, bad, good}, contract.PhaseSettled, 2},
		{"three bad", []contract.ModelReplied{bad, bad, bad}, contract.PhaseFaulted, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cadence.New(contract.AgentConfig{Model: "m", Output: out})
			s, effects, err := r.Step(cadence.InitialSnapshot("s"), contract.Submitted{RunID: "r", Input: []contract.Turn{contract.UserText("go")}})
			if err != nil {
				t.Fatal(err)
			}
			for _, reply := range tt.replies {
				req := lastRequest(t, effects)
				if req.Output == nil || req.Output.Name != "answer" {
					t.Fatalf("request without the output schema: %+v", req.Output)
				}
				if s, effects, err = r.Step(s, reply); err != nil {
					t.Fatal(err)
				}
			}
			if s.Phase != tt.phase {
				t.Fatalf("phase %s, want %s (%v)", s.Phase, tt.phase, s.Err)
			}
			var notes []string
			for _, turn := range s.History.Turns() {
				if turn.Mark == contract.MarkOutputRetry {
					notes = append(notes, turn.Text())
				}
			}
			if len(notes) != tt.notes {
				t.Fatalf("%d retry notes, want %d", len(notes), tt.notes)
			}
			if tt.notes > 0 {
				want := `Your answer does not match the required JSON schema "answer": not JSON. Reply again with only a JSON value that matches it.`
				if diff := cmp.Diff(want, notes[0]); diff != "" {
					t.Errorf("note mismatch (-want +got):\n%s", diff)
				}
			}
			if tt.phase == contract.PhaseFaulted && (s.Err.Kind != contract.KindOutput || s.Err.Message != `final answer does not match the output schema "answer": not JSON`) {
				t.Errorf("error %+v", s.Err)
			}
		})
	}
}

func lastRequest(t *testing.T, effects []contract.Effect) contract.ModelRequest {
	t.Helper()
	for i := len(effects) - 1; i >= 0; i-- {
		if e, ok := effects[i].(*contract.InvokeModel); ok {
			return e.Request
		}
	}
	t.Fatalf("no invoke_model among %s", cadence.Summarize(effects))
	return contract.ModelRequest{}
}
