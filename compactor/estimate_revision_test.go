package compactor_test

import (
	"testing"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

// Runs recorded under a revision before the bounded fallback replay with
// the counts their rules made then: bytes/4 for unknown models, while
// known models count alike under every revision.
func TestEstimatorFollowsRevision(t *testing.T) {
	greek := user("καλημέρα κόσμε")
	tests := []struct {
		name     string
		model    string
		revision int
		turn     contract.Turn
		want     int
	}{
		{"bytes/4 rounds up", "llama3.1:8b", contract.RevisionCauseAtCap, user("123456789"), over + 3},
		{"bytes/4 counts bytes", "mistral", contract.RevisionCauseAtCap, user("ééé"), over + 2},
		{"revision 0 is bytes/4", "", 0, greek, over + 7},
		{"bounded from its revision", "", contract.RevisionBoundedEstimates, greek, over + 16 + 1 + 10},
		{"known model ignores revision", "gpt-4", 0, user("tiktoken is great!"), over + 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := compactor.EstimatorFor(tt.model, tt.revision).Turn(tt.turn)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Condense and DropToolOutputs count the turns they make as their
// estimator does.
func TestEstimatorCountsTheTurnsItMakes(t *testing.T) {
	old := compactor.EstimatorFor("scripted", contract.RevisionCauseAtCap)
	cur := compactor.EstimatorFor("scripted", contract.CurrentRevision)
	turns := []contract.Turn{user("first"), calling("c1"), results("c1"), user("last")}
	const summary = "résumé: ça a marché"
	for _, e := range []compactor.Estimator{old, cur} {
		condensed := e.Condense(turns, 3, summary)
		if got, want := condensed[0].Tokens, e.Turn(user(summary)); got != want {
			t.Errorf("summary counts %d, its estimator %d", got, want)
		}
		dropped := e.DropToolOutputs(turns, 3)
		if got, want := dropped[2].Tokens, e.Turn(dropped[2]); got != want {
			t.Errorf("dropped results count %d, their estimator %d", got, want)
		}
	}
	if a, b := old.Turn(user(summary)), cur.Turn(user(summary)); a >= b {
		t.Errorf("the summary counts %d under revision 4 and %d under the bounded fallback", a, b)
	}
}
