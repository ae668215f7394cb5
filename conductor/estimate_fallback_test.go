package conductor_test

import (
	"testing"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// A local model's history is counted on the safe side in any script: the
// counts its turns carry are never below what cl100k_base or o200k_base
// make of them, so compaction starts before the context overflows. An
// agent pinned to an earlier revision counts as that revision did.
func TestUnknownModelCountsNonLatinSafely(t *testing.T) {
	const (
		prompt = "Η γρήγορη καφέ αλεπού πηδάει πάνω από το τεμπέλικο σκυλί. Το μοντέλο έχει περιορισμένο παράθυρο."
		answer = "人工智能正在改变我们的生活方式。模型的上下文窗口有限。😀😃😄"
	)
	for _, revision := range []int{contract.RevisionCauseAtCap, 0} {
		deps := testDeps(&fakeModel{replies: []replyFunc{say(answer)}}, toolBox(t))
		a := newAgent(t, contract.AgentConfig{Model: "llama3.1:8b", Revision: revision}, deps)
		snap, err := a.Submit(ctxT(t), conductor.Text(prompt))
		if err != nil {
			t.Fatal(err)
		}
		rev := snap.Revision
		for i, turn := range snap.History.Turns() {
			counted := turn
			counted.Tokens = 0
			if want := compactor.EstimatorFor("llama3.1:8b", rev).Turn(counted); turn.Tokens != want {
				t.Errorf("revision %d: turn %d carries %d tokens, its revision counts %d", rev, i, turn.Tokens, want)
			}
			if rev < contract.RevisionBoundedEstimates {
				continue
			}
			for _, known := range []string{"gpt-4", "gpt-4o"} {
				if exact := compactor.Estimate(known, counted); turn.Tokens < exact {
					t.Errorf("turn %d counts %d tokens, %s counts %d", i, turn.Tokens, known, exact)
				}
			}
		}
	}
}
