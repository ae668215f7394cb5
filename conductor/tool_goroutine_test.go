package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/google/go-cmp/cmp"
)

// goroutineID names the calling goroutine, from its stack's first line.
func goroutineID() string {
	b := make([]byte, 64)
	return strings.Fields(string(b[:runtime.Stack(b, false)]))[1]
}

// A turn of one tool call runs the call on the goroutine that applied
// the model's reply, here the one waiting in Submit, rather than waking
// a goroutine for the call and another to take its result back.
func TestOneCallTurnsRunOnTheSubmittingGoroutine(t *testing.T) {
	var mu sync.Mutex
	var ran []string
	tool := rawTool(t, "where", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		mu.Lock()
		ran = append(ran, goroutineID())
		mu.Unlock()
		return contract.ToolOutcome{Content: "here"}, nil
	})
	m := &fakeModel{replies: []replyFunc{
		callTools(call{"c1", "where", `{}`}),
		callTools(call{"c2", "where", `{}`}),
		callTools(call{"c3", "where", `{}`}),
		say("done"),
	}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, tool)))
	submitter := goroutineID()
	if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{submitter, submitter, submitter}, ran); diff != "" {
		t.Errorf("goroutines the calls ran on, want Submit's %s (-want +got):\n%s", submitter, diff)
	}
}

// A tool that ignores its context may hold the goroutine that runs it,
// but not the run: its call is answered at its timeout and the run goes
// on to settle while the tool still runs. On a loaded machine the
// timeout may come before the tool is called at all, which changes
// nothing the test checks: Submit returns once the tool, if it was
// called, has returned.
func TestToolIgnoringItsTimeoutDoesNotHoldTheRun(t *testing.T) {
	stuck := make(chan struct{})
	deaf := rawTool(t, "deaf", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		<-stuck
		return contract.ToolOutcome{Content: "too late"}, nil
	}, dispatch.Timeout(5*time.Millisecond))
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "deaf", `{}`}), say("done")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, deaf)))
	settled := make(chan contract.RunSnapshot, 1)
	a.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvRunSettled {
			settled <- a.Snapshot()
		}
	})
	done := submitAsync(a, "go")
	select {
	case snap := <-settled:
		want := []contract.ToolResult{{CallID: "c1", Name: "deaf", Content: `tool "deaf" timed out after 5ms`, IsError: true}}
		if diff := cmp.Diff(want, results(snap)); diff != "" {
			t.Errorf("results when the run settled (-want +got):\n%s", diff)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not settle while its tool ignored the timeout")
	}
	close(stuck)
	s := <-done
	if s.err != nil || s.snap.Phase != contract.PhaseSettled {
		t.Errorf("Submit = phase %s, %v; want settled", s.snap.Phase, s.err)
	}
}

// Cancelling Submit's context aborts the run even while its tool runs on
// the goroutine waiting in Submit: the tool's context ends, and Submit
// returns as soon as the tool does.
func TestSubmitContextCancelReachesAToolOnItsGoroutine(t *testing.T) {
	submitter := make(chan string, 1)
	running := make(chan string, 1)
	slow := rawTool(t, "slow", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		running <- goroutineID()
		<-ctx.Done()
		return contract.ToolOutcome{}, ctx.Err()
	}, dispatch.Timeout(time.Minute))
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "slow", `{}`}), say("unreached")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, slow)))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan submitted, 1)
	go func() {
		submitter <- goroutineID()
		snap, err := a.Submit(ctx, conductor.Text("go"))
		done <- submitted{snap, err}
	}()
	if ran, sub := <-running, <-submitter; ran != sub {
		t.Errorf("the tool ran on goroutine %s, not on Submit's %s", ran, sub)
	}
	cancel()
	select {
	case s := <-done:
		if !errors.Is(s.err, contract.ErrAborted) || s.snap.Phase != contract.PhaseFaulted {
			t.Errorf("Submit = phase %s, %v; want faulted, aborted", s.snap.Phase, s.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Submit did not return after its context was cancelled")
	}
}

// A tool marked OwnGoroutine runs on a goroutine of its own even alone
// in its step, so one that ignores its context does not hold Submit:
// cancelling Submit's context returns at once, the tool still running.
func TestOwnGoroutineToolDoesNotHoldSubmit(t *testing.T) {
	stuck := make(chan struct{})
	running := make(chan string, 1)
	returned := make(chan struct{})
	deaf := rawTool(t, "deaf", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		defer close(returned)
		running <- goroutineID()
		<-stuck
		return contract.ToolOutcome{Content: "too late"}, nil
	}, dispatch.OwnGoroutine(), dispatch.Timeout(time.Minute))
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "deaf", `{}`}), say("unreached")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, deaf)))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	submitter := make(chan string, 1)
	done := make(chan submitted, 1)
	go func() {
		submitter <- goroutineID()
		snap, err := a.Submit(ctx, conductor.Text("go"))
		done <- submitted{snap, err}
	}()
	if ran, sub := <-running, <-submitter; ran == sub {
		t.Errorf("the tool ran on Submit's goroutine %s", sub)
	}
	cancel()
	select {
	case s := <-done:
		if !errors.Is(s.err, contract.ErrAborted) {
			t.Errorf("Submit = %v, want aborted", s.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Submit did not return while its tool ignored the cancellation")
	}
	close(stuck)
	<-returned
}

// The calls of a batch are left for the goroutine that applied the
// model's reply, which runs the first itself; the others are taken by
// helpers as they come free, so calls that wait for one another all run
// at once: here each returns only once all four have started.
func TestBatchCallsRunAtOnceFromTheSubmittingGoroutine(t *testing.T) {
	const n = 4
	var mu sync.Mutex
	ran := map[string]string{}
	all := make(chan struct{})
	tool := rawTool(t, "meet", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		mu.Lock()
		ran[dispatch.CallID(ctx)] = goroutineID()
		if len(ran) == n {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
			return contract.ToolOutcome{Content: "met"}, nil
		case <-ctx.Done():
			return contract.ToolOutcome{}, ctx.Err()
		}
	}, dispatch.Timeout(10*time.Second))
	calls := make([]call, n)
	for i := range calls {
		calls[i] = call{fmt.Sprintf("c%d", i), "meet", `{}`}
	}
	m := &fakeModel{replies: []replyFunc{callTools(calls...), say("done")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, tool)))
	submitter := goroutineID()
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results(snap) {
		if r.Content != "met" {
			t.Errorf("call %s: %q, want met: the calls did not all run at once", r.CallID, r.Content)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if ran["c0"] != submitter {
		t.Errorf("the batch's first call ran on goroutine %s, not on Submit's %s", ran["c0"], submitter)
	}
}
