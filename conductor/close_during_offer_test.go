package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// heldShare holds the append of an AllowanceShared to one session until
// release is closed, telling held when it waits.
type heldShare struct {
	store.Store
	session string
	once    sync.Once
	held    chan struct{}
	release chan struct{}
}

func (s *heldShare) Append(ctx context.Context, id string, recs ...contract.Record) (store.Hash, error) {
	for _, r := range recs {
		if _, ok := r.Signal.(contract.AllowanceShared); ok && id == s.session {
			s.once.Do(func() {
				close(s.held)
				<-s.release
			})
		}
	}
	return s.Store.Append(ctx, id, recs...)
}

// TestParentClosedWhileTakingItsChildsAlwaysReturns: a child's worker
// applies a person's "always" and offers it to its idle parent. Were the
// offer done on that worker, the parent's Close queued meanwhile would be
// done there too: the child then waits only for a person, so Close
// closes it from inside the parent's turn and waits for the child's
// workers, this one among them, and would never return. The approver of
// w1 holds the caller waiting for the child's run until w2's approver
// has begun, so w2's runs on a worker of the child's; the echo runs on a
// goroutine of its own, so its result is in before the parent's Close.
func TestParentClosedWhileTakingItsChildsAlwaysReturns(t *testing.T) {
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_writer", `{"task":"write"}`}),
		"writer": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}, call{"w2", "echo", `{"text":"pen"}`}),
	}
	echo := dispatch.WithApprovalKeys(echoTool(t, dispatchNeedsApproval, dispatch.OwnGoroutine()), func(args json.RawMessage) ([]string, error) {
		var in echoIn
		err := json.Unmarshal(args, &in)
		return []string{in.Text}, err
	})
	deps := testDeps(model, toolBox(t, echo))
	st := &heldShare{Store: store.NewMemory(), session: "session_test", held: make(chan struct{}), release: make(chan struct{})}
	deps.Env.Store = st
	w2Asked := make(chan struct{})
	deps.People.Approver = func(ctx context.Context, req conductor.ApprovalRequest) (conductor.Decision, error) {
		if req.Call.ID == "w2" {
			close(w2Asked)
			return conductor.Decision{Approved: true, Scope: contract.ScopeSession}, nil
		}
		select {
		case <-w2Asked:
		case <-ctx.Done():
		}
		return conductor.Decision{}, conductor.ErrApproveLater
	}
	a := newAgent(t, twoDelegates(), deps)
	w2Done := make(chan struct{})
	var once sync.Once
	a.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvToolResult && len(ev.Subflow) == 1 && ev.Result != nil && ev.Result.CallID == "w2" {
			once.Do(func() { close(w2Done) })
		}
	})
	done := submitAsync(a, "go")
	// The parent takes the child's "always": its record waits here.
	<-st.held
	<-w2Done
	closed := make(chan error, 1)
	go func() { closed <- a.Close() }()
	waitFor(t, func() bool { return conductor.Queued(a) == 1 })
	close(st.release)
	if err := returnsOrDump(t, "the parent's Close", closed); err != nil {
		t.Errorf("close: %v", err)
	}
	if res := <-done; !errors.Is(res.err, conductor.ErrClosed) {
		t.Errorf("submit: %v in %s, want ErrClosed: the run waits for a person", res.err, res.snap.Phase)
	}
}
