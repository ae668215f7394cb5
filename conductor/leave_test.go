package conductor_test

import (
	"context"
	"errors"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/google/go-cmp/cmp"
)

// An agent that leaves its run in flight (a server going down for a
// restart) stops it without recording its end: the store keeps the run
// in flight, its lock free, and another agent resumes it where it stood,
// with the model call that was cut off made again and nothing doubled.
func TestLeaveKeepsRunInFlight(t *testing.T) {
	ctx := ctxT(t)
	st := store.NewMemory()
	started := make(chan struct{})
	first := &fakeModel{replies: []replyFunc{func(ctx context.Context, _ contract.ModelRequest) ([]turn.Chunk, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}}}
	deps := testDeps(first, nil)
	deps.Env.Store = st
	a := newAgent(t, contract.AgentConfig{}, deps)
	var rec recorder
	a.Subscribe(rec.add)
	submitted := make(chan error, 1)
	go func() {
		_, err := a.Submit(ctx, conductor.Text("hello"))
		submitted <- err
	}()
	<-started
	if err := a.Leave(); err != nil {
		t.Fatal(err)
	}
	if err := <-submitted; !errors.Is(err, conductor.ErrClosed) {
		t.Fatalf("Submit of the run left: %v, want ErrClosed", err)
	}
	if err := a.Flush(ctx); err != nil && !errors.Is(err, conductor.ErrClosed) {
		t.Fatal(err)
	}
	recs, err := st.Records(ctx, "session_test")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if k := r.Signal.SignalKind(); k == contract.SigAbortRequested || k == contract.SigModelFailed {
			t.Fatalf("the run left recorded %s", k)
		}
	}

	second := &fakeModel{replies: []replyFunc{say("resumed")}}
	deps2 := testDeps(second, nil)
	deps2.Env.Store = st
	b := newAgent(t, contract.AgentConfig{}, deps2)
	snap, err := b.Resume(ctx, "session_test")
	if err != nil {
		t.Fatal(err)
	}
	if snap.Phase != contract.PhaseSettled {
		t.Fatalf("resumed run ended %s (%v)", snap.Phase, snap.Err)
	}
	var texts []string
	for _, turn := range snap.History.Turns() {
		texts = append(texts, string(turn.Role)+": "+turn.Text())
	}
	if diff := cmp.Diff([]string{"user: hello", "assistant: resumed"}, texts); diff != "" {
		t.Errorf("history mismatch (-want +got):\n%s", diff)
	}
}
