package conductor_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestApproverIsToldWhichRunAsks: the root's Approver is asked for its
// delegates' calls too. The run's own call_1 and its child's call_1 wait
// at once; each request names the run it came from by its subflow path,
// so a decision given later from the request alone (ApproveCalls with
// the path, run and turn) reaches that run's call and no other.
func TestApproverIsToldWhichRunAsks(t *testing.T) {
	model := agentsModel{
		"parent": delegateOnce(call{"call_1", "echo", `{"text":"own"}`}, call{"call_2", "delegate_writer", `{"task":"write"}`}),
		"writer": delegateOnce(call{"call_1", "echo", `{"text":"ink"}`}),
	}
	asked := &askedCalls{}
	deps := testDeps(model, toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.People.Approver = asked.approver
	cfg := twoDelegates()
	cfg.Tools = []contract.ToolDescriptor{{Name: "echo"}}
	a := newAgent(t, cfg, deps)
	done := submitAsync(a, "go")
	waitFor(t, func() bool { return len(asked.all()) == 2 })
	paths := map[string][]string{}
	for _, req := range asked.all() {
		paths[req.Call.Arguments] = req.Subflow
		d := conductor.Decision{Approved: true}
		if len(req.Subflow) > 0 {
			d = conductor.Decision{Reason: "not in the child"}
		}
		if err := a.ApproveCalls(ctxT(t), req.Subflow, []conductor.CallDecision{{CallID: req.Call.ID, Decision: d, RunID: req.RunID, Turn: req.Turn}}); err != nil {
			t.Fatalf("deciding %s from its request: %v", req.Call.Arguments, err)
		}
	}
	if diff := cmp.Diff(map[string][]string{`{"text":"own"}`: nil, `{"text":"ink"}`: {"call_2"}}, paths); diff != "" {
		t.Errorf("subflow paths of the requests mismatch (-want +got):\n%s", diff)
	}
	want := []string{"own", "error: the user denied this call: not in the child"}
	if diff := cmp.Diff(want, settledContents(t, done)); diff != "" {
		t.Errorf("parent results mismatch (-want +got):\n%s", diff)
	}
}
