package conductor_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// TestDenialReasonNotUTF8IsRecordedAsItIsStored: a denial's reason that
// is not valid UTF-8, from the host or from an Approver, reaches the
// model as the session stores it, so a resumed session shows the very
// result the live run had.
func TestDenialReasonNotUTF8IsRecordedAsItIsStored(t *testing.T) {
	const reason = "not \xff that"
	for _, tc := range []struct {
		name     string
		approver conductor.Approver
	}{
		{"host", conductor.ApproveLater},
		{"approver", func(context.Context, conductor.ApprovalRequest) (conductor.Decision, error) {
			return conductor.Decision{Reason: reason}, nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := ctxT(t)
			st := store.NewMemory()
			m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "echo", `{"text":"x"}`}), say("done")}}
			deps := testDeps(m, toolBox(t, echoTool(t, dispatchNeedsApproval)))
			deps.People.Approver = tc.approver
			deps.Env.Store = st
			a := newAgent(t, contract.AgentConfig{}, deps)
			done := submitAsync(a, "go")
			if tc.name == "host" {
				waitPhase(t, a, contract.PhaseAwaitingApproval)
				if err := a.Approve(ctx, "c1", conductor.Decision{Reason: reason}); err != nil {
					t.Fatal(err)
				}
			}
			live := <-done
			if live.err != nil {
				t.Fatal(live.err)
			}
			_ = a.Close()
			deps2 := testDeps(&fakeModel{}, toolBox(t, echoTool(t, dispatchNeedsApproval)))
			deps2.Env.Store = st
			resumed, err := newAgent(t, contract.AgentConfig{}, deps2).Resume(ctx, "session_test")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(outcomes(live.snap), outcomes(resumed)); diff != "" {
				t.Errorf("live results differ from the stored ones (-live +stored):\n%s", diff)
			}
			if got := lastResults(m.Requests()[1]); len(got) != 1 || got[0].Content != results(resumed)[0].Content {
				t.Errorf("the model was sent %+v, not the stored result", got)
			}
		})
	}
}
