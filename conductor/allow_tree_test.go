package conductor_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

// inTurns makes the calls of the i-th list on the agent's i-th model
// call of a run, then answers with the newest results joined.
func inTurns(turns ...[]call) func(context.Context, contract.ModelRequest) replyFunc {
	return func(_ context.Context, req contract.ModelRequest) replyFunc {
		n := 0
		for _, turn := range req.History.Turns() {
			if turn.Role == contract.RoleAssistant {
				n++
			}
		}
		if n < len(turns) {
			return callTools(turns[n]...)
		}
		var parts []string
		for _, r := range lastResults(req) {
			parts = append(parts, r.Content)
		}
		return say(strings.Join(parts, " | "))
	}
}

// keyedEcho is echo needing approval, keyed by its text (echo:ink).
func keyedEcho(t *testing.T) dispatch.Tool {
	return dispatch.WithApprovalKeys(echoTool(t, dispatchNeedsApproval), func(args json.RawMessage) ([]string, error) {
		var in echoIn
		err := json.Unmarshal(args, &in)
		return []string{in.Text}, err
	})
}

// asked is an approver that allows every call for the session and
// notes where each request came from, as subflow/call.
type asked struct {
	mu  sync.Mutex
	got []string
}

func (a *asked) approve(_ context.Context, req conductor.ApprovalRequest) (conductor.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.got = append(a.got, strings.Join(append(append([]string(nil), req.Subflow...), req.Call.ID), "/"))
	return conductor.Decision{Approved: true, Scope: contract.ScopeSession}, nil
}

// TestAlwaysReachesTheWholeTree: what a person allowed for the session
// holds in the whole delegation tree under the root, from revision 9 on:
// a child starts with what its parent allows, and an "always" answered
// for a child's call is kept by its parent, so later children and the
// root itself do not ask again. Revision 8 asked in each run.
func TestAlwaysReachesTheWholeTree(t *testing.T) {
	ink := call{"e1", "echo", `{"text":"ink"}`}
	write := func(id string) call { return call{id, "delegate_writer", `{"task":"write"}`} }
	lead := func(id string) call { return call{id, "delegate_lead", `{"task":"lead"}`} }
	for _, tc := range []struct {
		name     string
		revision int
		parent   [][]call
		want     []string
		allowed  []string // the root's allowlist at the end
	}{
		{"child_then_child", contract.RevisionAllowTree, [][]call{{write("c1")}, {write("c2")}}, []string{"c1/w1"}, []string{"echo:ink"}},
		{"root_then_child", contract.RevisionAllowTree, [][]call{{ink}, {write("c1")}}, []string{"e1"}, []string{"echo:ink"}},
		{"child_then_root", contract.RevisionAllowTree, [][]call{{write("c1")}, {ink}}, []string{"c1/w1"}, []string{"echo:ink"}},
		{"grandchild_then_root", contract.RevisionAllowTree, [][]call{{lead("c1")}, {ink}}, []string{"c1/m1/w1"}, []string{"echo:ink"}},
		{"root_then_grandchild", contract.RevisionAllowTree, [][]call{{ink}, {lead("c1")}}, []string{"e1"}, []string{"echo:ink"}},
		{"grandchild_then_child", contract.RevisionAllowTree, [][]call{{lead("c1")}, {write("c2")}}, []string{"c1/m1/w1"}, []string{"echo:ink"}},
		{"child_then_child_rev8", contract.RevisionChildDigest, [][]call{{write("c1")}, {write("c2")}}, []string{"c1/w1", "c2/w1"}, nil},
		{"root_then_child_rev8", contract.RevisionChildDigest, [][]call{{ink}, {write("c1")}}, []string{"e1", "c1/w1"}, []string{"echo:ink"}},
		{"child_then_root_rev8", contract.RevisionChildDigest, [][]call{{write("c1")}, {ink}}, []string{"c1/w1", "e1"}, []string{"echo:ink"}},
		{"grandchild_then_root_rev8", contract.RevisionChildDigest, [][]call{{lead("c1")}, {ink}}, []string{"c1/m1/w1", "e1"}, []string{"echo:ink"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := agentsModel{
				"parent": inTurns(tc.parent...),
				"writer": inTurns([]call{{"w1", "echo", `{"text":"ink"}`}}),
				"lead":   inTurns([]call{{"m1", "delegate_writer", `{"task":"write"}`}}),
			}
			cfg := twoDelegates()
			cfg.Revision = tc.revision
			cfg.Tools = []contract.ToolDescriptor{{Name: "echo"}}
			cfg.Delegates[1].Config.Revision = tc.revision
			cfg.Delegates = append(cfg.Delegates, contract.Delegate{Name: "lead", Config: contract.AgentConfig{
				Model: "gpt-4o", System: "lead", Revision: tc.revision, Delegates: cfg.Delegates[1:2]}})
			deps := testDeps(model, toolBox(t, keyedEcho(t)))
			st := store.NewMemory()
			deps.Env.Store = st
			approver := &asked{}
			deps.People.Approver = approver.approve
			a := newAgent(t, cfg, deps)
			snap, err := a.Submit(ctxT(t), conductor.Text("go"))
			if err != nil {
				t.Fatal(err)
			}
			if snap.Phase != contract.PhaseSettled {
				t.Fatalf("phase %s (%v), want settled", snap.Phase, snap.Err)
			}
			for _, r := range results(snap) {
				if r.IsError || !strings.Contains(r.Content, "ink") {
					t.Errorf("result %+v, want the call's or the child's ink", r)
				}
			}
			if diff := cmp.Diff(tc.want, approver.got); diff != "" {
				t.Errorf("approvals asked mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.allowed, snap.Allowed); diff != "" {
				t.Errorf("root's allowlist mismatch (-want +got):\n%s", diff)
			}
			checkDAG(t, st, snap.SessionID, -1)
			records, err := st.Records(ctxT(t), snap.SessionID)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range records {
				if ds, ok := r.Signal.(contract.DelegateSettled); ok && tc.revision < contract.RevisionAllowTree && ds.Allowed != nil {
					t.Errorf("step %d: revision %d recorded a child's allowances %v its rules keep none of", r.Step, tc.revision, ds.Allowed)
				}
			}
			folded, err := store.Resume(ctxT(t), st, cadence.New(contract.AgentConfig{Model: "gpt-4o"}), snap.SessionID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(snap.Allowed, folded.Allowed); diff != "" {
				t.Errorf("folded allowlist mismatch (-live +folded):\n%s", diff)
			}
		})
	}
}
