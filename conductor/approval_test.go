package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// wordKeys keys a call by the words of its "cmd" argument; "fail" makes
// the keyer fail.
func wordKeys(args json.RawMessage) ([]string, error) {
	var in struct{ Cmd string }
	if err := json.Unmarshal(args, &in); err != nil || in.Cmd == "fail" {
		return nil, errors.New("cannot tell")
	}
	return strings.Fields(in.Cmd), nil
}

func TestNoApproverDeniesByDefault(t *testing.T) {
	ran := make(chan string, 1)
	risky := gateTool(t, "risky", ran, nil, dispatch.NeedsApproval())
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "risky", `{}`}), say("ok")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, risky)))
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	rs := results(snap)
	if len(ran) != 0 || len(rs) != 1 || !rs[0].IsError || !strings.Contains(rs[0].Content, "no approver is attached") {
		t.Fatalf("ran %d, results %+v", len(ran), rs)
	}
}

func TestFailingApproverDenies(t *testing.T) {
	for name, approver := range map[string]conductor.Approver{
		"error": func(context.Context, conductor.ApprovalRequest) (conductor.Decision, error) {
			return conductor.Decision{Approved: true}, errors.New("approval service down")
		},
		"panic": func(context.Context, conductor.ApprovalRequest) (conductor.Decision, error) { panic("boom") },
	} {
		t.Run(name, func(t *testing.T) {
			ran := make(chan string, 1)
			m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "risky", `{}`}), say("ok")}}
			deps := testDeps(m, toolBox(t, gateTool(t, "risky", ran, nil, dispatch.NeedsApproval())))
			deps.People.Approver = approver
			snap, err := newAgent(t, contract.AgentConfig{}, deps).Submit(ctxT(t), conductor.Text("go"))
			if err != nil {
				t.Fatal(err)
			}
			if rs := results(snap); len(ran) != 0 || !rs[0].IsError || !strings.Contains(rs[0].Content, "the approver failed") {
				t.Fatalf("ran %d, results %+v", len(ran), rs)
			}
		})
	}
}

// TestAlwaysAllowsTheKeysNotTheTool: approving a call for the session
// allowlists what it does; a later call doing only that runs unasked, a
// call doing something new asks again, and a call whose keys cannot be
// derived is allowlisted only as its exact arguments.
func TestAlwaysAllowsTheKeysNotTheTool(t *testing.T) {
	release := make(chan struct{})
	close(release)
	ran := make(chan string, 8)
	runner := dispatch.WithApprovalKeys(gateTool(t, "runner", ran, release, dispatch.NeedsApproval()), wordKeys)
	m := &fakeModel{replies: []replyFunc{
		callTools(call{"c1", "runner", `{"cmd":"ls wc"}`}),
		callTools(call{"c2", "runner", `{"cmd":"wc ls"}`}, call{"c3", "runner", `{"cmd":"ls rm"}`}),
		callTools(call{"c4", "runner", `{"cmd":"fail"}`}),
		callTools(call{"c5", "runner", `{"cmd":"fail"}`}, call{"c6", "runner", `{"cmd": "fail"}`}),
		say("done"),
	}}
	var mu sync.Mutex
	var asked []conductor.ApprovalRequest
	deps := testDeps(m, toolBox(t, runner))
	deps.People.Approver = func(_ context.Context, req conductor.ApprovalRequest) (conductor.Decision, error) {
		mu.Lock()
		asked = append(asked, req)
		mu.Unlock()
		return conductor.Decision{Approved: true, Scope: contract.ScopeSession}, nil
	}
	snap, err := newAgent(t, contract.AgentConfig{}, deps).Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, r := range asked {
		got = append(got, append([]string{r.Call.ID}, r.Keys...))
	}
	want := [][]string{
		{"c1", "runner:ls", "runner:wc"},
		{"c3", "runner:ls", "runner:rm"},
		{"c4", `runner:{"cmd":"fail"}`},
		{"c6", `runner:{"cmd": "fail"}`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("approval requests mismatch (-want +got):\n%s", diff)
	}
	wantAllowed := []string{"runner:ls", "runner:rm", "runner:wc", `runner:{"cmd": "fail"}`, `runner:{"cmd":"fail"}`}
	if diff := cmp.Diff(wantAllowed, snap.Allowed); diff != "" {
		t.Errorf("allowlist mismatch (-want +got):\n%s", diff)
	}
	if len(ran) != 6 {
		t.Errorf("%d calls ran, want 6", len(ran))
	}
}
