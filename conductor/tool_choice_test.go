package conductor_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// obeysToolChoice answers as a model bound by the request's tool choice:
// a call of echo while the choice makes it call a tool, text otherwise.
func obeysToolChoice(ctx context.Context, req contract.ModelRequest) ([]turn.Chunk, error) {
	c := req.Sampling.ToolChoice
	if _, named := c.Tool(); named || c == contract.ToolChoiceRequired {
		return callTools(call{fmt.Sprintf("c%d", req.Turn), "echo", `{"text":"x"}`})(ctx, req)
	}
	return say("done")(ctx, req)
}

// TestToolChoiceHoldsForTheFirstCall: a tool choice that makes the model
// call a tool, "required" or a tool's name, goes with a run's first
// model call only; under revision 14, which CreateAgent writes, the call
// after the tool's result leaves the choice to the model, which answers,
// and the next run starts with the choice again. Sent with every call,
// it kept a model that obeys it calling tools until the turn cap.
func TestToolChoiceHoldsForTheFirstCall(t *testing.T) {
	for _, choice := range []contract.ToolChoice{contract.ToolChoiceRequired, "echo"} {
		t.Run(string(choice), func(t *testing.T) {
			m := &fakeModel{replies: []replyFunc{obeysToolChoice, obeysToolChoice, obeysToolChoice, obeysToolChoice}}
			cfg := contract.AgentConfig{MaxTurns: 3, Sampling: contract.Sampling{ToolChoice: choice}}
			a := newAgent(t, cfg, testDeps(m, toolBox(t, echoTool(t))))
			for _, text := range []string{"go", "again"} {
				snap, err := a.Submit(ctxT(t), conductor.Text(text))
				if err != nil || snap.Phase != contract.PhaseSettled {
					t.Fatalf("submit %q: err %v, phase %s", text, err, snap.Phase)
				}
				if got := snap.RunUsage.ModelCalls; got != 2 {
					t.Errorf("submit %q: %d model calls, want 2 (a tool call, then the answer)", text, got)
				}
			}
			var got []contract.ToolChoice
			for _, req := range m.Requests() {
				got = append(got, req.Sampling.ToolChoice)
			}
			want := []contract.ToolChoice{choice, contract.ToolChoiceAuto, choice, contract.ToolChoiceAuto}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tool choice of each model call (-want +got):\n%s", diff)
			}
		})
	}
}
