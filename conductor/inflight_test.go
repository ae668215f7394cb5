package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// gateTool runs until release is closed (or its context ends) and tells
// started when it begins.
func gateTool(t testing.TB, name string, started chan<- string, release <-chan struct{}, opts ...dispatch.Option) dispatch.Tool {
	return rawTool(t, name, func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		started <- dispatch.CallID(ctx)
		select {
		case <-release:
			return contract.ToolOutcome{Content: name + " finished"}, nil
		case <-ctx.Done():
			return contract.ToolOutcome{}, ctx.Err()
		}
	}, opts...)
}

// submitted is a Submit running in the background.
type submitted struct {
	snap contract.RunSnapshot
	err  error
}

// submitAsync starts Submit and returns where its result arrives.
func submitAsync(a *conductor.Agent, text string) <-chan submitted {
	out := make(chan submitted, 1)
	go func() {
		snap, err := a.Submit(context.Background(), conductor.Text(text))
		out <- submitted{snap, err}
	}()
	return out
}

func waitPhase(t *testing.T, a *conductor.Agent, p contract.Phase) contract.RunSnapshot {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if s := a.Snapshot(); s.Phase == p {
			return s
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("phase %s never reached; at %s", p, a.Snapshot().Phase)
	return contract.RunSnapshot{}
}

func TestSteerMidToolBatchSkipsQueuedCalls(t *testing.T) {
	started, release := make(chan string, 4), make(chan struct{})
	slow := gateTool(t, "slow", started, release, dispatch.Sequential())
	m := &fakeModel{replies: []replyFunc{
		callTools(call{"c1", "slow", `{}`}, call{"c2", "echo", `{"text":"never"}`}),
		say("steered answer"),
	}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, slow, echoTool(t))))
	done := submitAsync(a, "go")
	<-started
	if err := a.Steer(ctxT(t), conductor.Text("change of plan")); err != nil {
		t.Fatal(err)
	}
	close(release)
	snap := (<-done).snap
	rs := results(snap)
	if len(rs) != 2 || rs[0].Content != "slow finished" || rs[1].Content != "skipped: steered" {
		t.Fatalf("results %+v", rs)
	}
	req := m.Requests()[1]
	last, _ := req.History.Last()
	if last.Mark != contract.MarkSteer || last.Text() != "change of plan" {
		t.Fatalf("second request does not end with the steer: %+v", last)
	}
}

func TestSubmitWhileInFlightSteersAndReturnsWithTheSameRun(t *testing.T) {
	release := make(chan struct{})
	m := &fakeModel{replies: []replyFunc{blockUntil(release, say("first")), say("second")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, nil))
	first := submitAsync(a, "one")
	waitPhase(t, a, contract.PhaseAwaitingModel)
	second := submitAsync(a, "two")
	for a.Snapshot().Queued == nil {
		time.Sleep(time.Millisecond)
	}
	close(release)
	s1, s2 := (<-first).snap, (<-second).snap
	if s1.RunID != s2.RunID || s1.Phase != contract.PhaseSettled || len(m.Requests()) != 2 {
		t.Fatalf("runs %s %s phase %s requests %d", s1.RunID, s2.RunID, s1.Phase, len(m.Requests()))
	}
}

func TestFollowUpContinuesTheRunWhenItWouldSettle(t *testing.T) {
	release := make(chan struct{})
	m := &fakeModel{replies: []replyFunc{blockUntil(release, say("first answer")), say("second answer")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, nil))
	done := submitAsync(a, "go")
	waitPhase(t, a, contract.PhaseAwaitingModel)
	if err := a.FollowUp(ctxT(t), conductor.Text("and then?")); err != nil {
		t.Fatal(err)
	}
	close(release)
	snap := (<-done).snap
	var texts []string
	for _, turn := range snap.History.Turns() {
		texts = append(texts, turn.Text())
	}
	if strings.Join(texts, "|") != "go|first answer|and then?|second answer" {
		t.Fatalf("history %q", texts)
	}
	if err := a.FollowUp(ctxT(t), conductor.Text("late")); !errors.Is(err, conductor.ErrNoRun) {
		t.Fatalf("follow-up with no run: %v", err)
	}
}

func TestAbortNowCancelsRunningTools(t *testing.T) {
	started := make(chan string, 1)
	slow := gateTool(t, "slow", started, make(chan struct{}))
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "slow", `{}`})}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, slow)))
	done := submitAsync(a, "go")
	<-started
	if err := a.Abort(ctxT(t), contract.AbortNow); err != nil {
		t.Fatal(err)
	}
	res := <-done
	snap := res.snap
	if !errors.Is(res.err, contract.ErrAborted) {
		t.Fatalf("err %v", res.err)
	}
	rs := results(snap)
	if len(rs) != 1 || !strings.HasPrefix(rs[0].Content, "aborted") {
		t.Fatalf("results %+v", rs)
	}
}

func TestAbortAfterReplyRunsNoTools(t *testing.T) {
	release := make(chan struct{})
	ran := make(chan string, 1)
	m := &fakeModel{replies: []replyFunc{blockUntil(release, callTools(call{"c1", "slow", `{}`}))}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, gateTool(t, "slow", ran, nil))))
	done := submitAsync(a, "go")
	waitPhase(t, a, contract.PhaseAwaitingModel)
	if err := a.Abort(ctxT(t), contract.AbortAfterReply); err != nil {
		t.Fatal(err)
	}
	close(release)
	res := <-done
	snap := res.snap
	if !errors.Is(res.err, contract.ErrAborted) {
		t.Fatalf("err %v", res.err)
	}
	if len(ran) != 0 {
		t.Fatal("a tool ran after abort")
	}
	rs := results(snap)
	// input, reply, aborted result, and the note the failed run leaves
	if snap.History.Len() != 4 || len(rs) != 1 || !strings.HasPrefix(rs[0].Content, "aborted") {
		t.Fatalf("history %d results %+v", snap.History.Len(), rs)
	}
}

func TestAbortAfterToolsLetsRunningToolsFinish(t *testing.T) {
	started, release := make(chan string, 2), make(chan struct{})
	slow := gateTool(t, "slow", started, release, dispatch.Sequential())
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "slow", `{}`}, call{"c2", "echo", `{"text":"no"}`})}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, slow, echoTool(t))))
	done := submitAsync(a, "go")
	<-started
	if err := a.Abort(ctxT(t), contract.AbortAfterTools); err != nil {
		t.Fatal(err)
	}
	close(release)
	res := <-done
	snap := res.snap
	if !errors.Is(res.err, contract.ErrAborted) {
		t.Fatalf("err %v", res.err)
	}
	rs := results(snap)
	if len(rs) != 2 || rs[0].Content != "slow finished" || !strings.HasPrefix(rs[1].Content, "aborted") {
		t.Fatalf("results %+v", rs)
	}
	if len(m.Requests()) != 1 {
		t.Fatal("the model was called after the abort")
	}
}

func TestApproverDenyGoesBackToTheModel(t *testing.T) {
	ran := make(chan string, 1)
	risky := gateTool(t, "risky", ran, nil, dispatch.NeedsApproval())
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "risky", `{}`}), say("ok, I won't")}}
	deps := testDeps(m, toolBox(t, risky))
	deps.People.Approver = func(context.Context, conductor.ApprovalRequest) (conductor.Decision, error) {
		return conductor.Decision{Approved: false, Reason: "too risky"}, nil
	}
	a := newAgent(t, contract.AgentConfig{}, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("err %v phase %s", err, snap.Phase)
	}
	rs := results(snap)
	if len(ran) != 0 || len(rs) != 1 || !rs[0].IsError || !strings.Contains(rs[0].Content, "too risky") {
		t.Fatalf("results %+v", rs)
	}
}

func TestHostApprovesForTheSession(t *testing.T) {
	release := make(chan struct{})
	close(release)
	ran := make(chan string, 4)
	risky := gateTool(t, "risky", ran, release, dispatch.NeedsApproval())
	m := &fakeModel{replies: []replyFunc{
		callTools(call{"c1", "risky", `{"n":1}`}),
		callTools(call{"c2", "risky", `{"n":2}`}),
		say("done"),
	}}
	deps := testDeps(m, toolBox(t, risky))
	deps.People.Approver = conductor.ApproveLater
	a := newAgent(t, contract.AgentConfig{}, deps)
	done := submitAsync(a, "go")
	s := waitPhase(t, a, contract.PhaseAwaitingApproval)
	if got := s.PendingApprovals(); len(got) != 1 || got[0].ID != "c1" {
		t.Fatalf("pending approvals %+v", got)
	}
	if err := a.Approve(ctxT(t), "nope", conductor.Decision{Approved: true}); !errors.Is(err, conductor.ErrRejected) {
		t.Fatalf("approving an unknown call: %v", err)
	}
	if err := a.Approve(ctxT(t), "c1", conductor.Decision{Approved: true, Scope: contract.ScopeSession}); err != nil {
		t.Fatal(err)
	}
	snap := (<-done).snap
	if len(ran) != 2 || snap.Phase != contract.PhaseSettled || len(snap.Allowed) != 1 {
		t.Fatalf("ran %d phase %s allowed %v", len(ran), snap.Phase, snap.Allowed)
	}
}
