package wire

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// childHeldRunner is steerMissed whose subscriptions, once hold is set,
// hold every delegated run's event, and all after it, until release
// closes, as a busy machine may: the thread's log still shows the run
// in flight, in its delegate call, after it ended and the next one
// started. steered closes once a steer is taken.
type childHeldRunner struct {
	steerMissed
	hold    *atomic.Bool
	release <-chan struct{}
	steerSignal
}

func (r childHeldRunner) Subscribe(fn func(contract.RunEvent)) func() {
	return r.steerMissed.Subscribe(holding(fn, r.release, func(ev contract.RunEvent) bool {
		return r.hold.Load() && len(ev.Subflow) > 0
	}))
}

func (r childHeldRunner) Steer(ctx context.Context, input []contract.Turn) error {
	return r.took(r.steerMissed.Steer(ctx, input))
}

// TestAPostTakenByTheNextRunHidesTheEndedRunsDelegate: a message whose
// steer found its run ended, and which the next run (another post's)
// took instead, while the thread's log still had the ended run in its
// delegate call, gets a stream of the next run only: what the log
// brings of the ended run, its delegate's last events too, is that
// run's streams', not this one's. The delegate's events were shown in
// it, ahead of the next run's start: the official AG-UI client threw
// (its first event must be RUN_STARTED), and the AI SDK's rebuilt no
// message at all.
func TestAPostTakenByTheNextRunHidesTheEndedRunsDelegate(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			dir := aiSDKDir(t)
			var hold atomic.Bool
			arrived, release, steered, model := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
			var let sync.Once
			letGo := func() {
				let.Do(func() {
					close(release)
					close(model)
				})
			}
			// Before the handler closes, should the test stop early.
			t.Cleanup(letGo)
			gate, openGate := heldGate(t)
			replies := append(delegatingCleaner()[:2], gated(model, says("Tidying.")), says("Kept."))
			s := cutStreams(t, cleanerRunnerServer(t, t.TempDir(), proto, replies, func(a *conductor.Agent) Runner {
				return childHeldRunner{steerMissed{agentRunner{a}, &sync.Once{}, arrived, gate}, &hold, release, steerSignal{steered, &sync.Once{}}}
			}))
			body := func(text string) string { return userBody(proto, "x1", text) }
			// The run waits in its delegate call for the child's approval.
			wantApprovalRequest(t, "first stream", s.srv.URL, body("clean up"), "call_d/d1")
			th, returned := threadReturned(s.h, "x1")
			firstRun := th.r.Snapshot().RunID

			hold.Store(true)
			second := postLater(s.srv.URL, body("keep the build"))
			<-arrived
			// Between the second post's look and its steer, the first run
			// is stopped in its delegate call and returns, the child's
			// events held from the thread's log, and another post starts
			// the next run, whose model call waits: that run stays in
			// flight.
			if err := th.r.(childHeldRunner).Abort(context.Background(), contract.AbortNow); err != nil {
				t.Fatal(err)
			}
			<-returned
			third := postLater(s.srv.URL, body("tidy the docs"))
			waitFor(t, func() bool { s := th.r.Snapshot(); return s.RunID != firstRun && s.Phase.InFlight() })
			openGate()
			var a postAnswer
			select {
			case <-steered:
			case a = <-second:
				t.Fatalf("second post ended before its steer was taken: %d %v:\n%s", a.code, a.err, a.body)
			}
			letGo()
			a = answerOK(t, "second post", second)
			if b := <-third; b.err != nil || b.code != http.StatusOK {
				t.Fatalf("third post: %d %v", b.code, b.err)
			}
			got := foldLines(t, proto, dir, a.body)
			want := []string{"text: Tidying.", "text: Kept."}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("what the client rebuilt from the second post's stream mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestANewRunsStreamHidesTheEndedRunsDelegate: a message that starts a
// run, while the thread's log still has the run before it in its
// delegate call, gets a stream of its own run only: the delegate's last
// events, which the log brings first, are the ended run's streams'. They
// opened the new run's stream, ahead of its start: the official AG-UI
// client threw (its first event must be RUN_STARTED).
func TestANewRunsStreamHidesTheEndedRunsDelegate(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			dir := aiSDKDir(t)
			var hold atomic.Bool
			// Before the handler closes, should the test stop early.
			release, letGo := heldGate(t)
			replies := append(delegatingCleaner()[:2], says("Tidied."))
			s := cutStreams(t, cleanerRunnerServer(t, t.TempDir(), proto, replies, func(a *conductor.Agent) Runner {
				return childHeldRunner{steerMissed{agentRunner{a}, &sync.Once{}, nil, nil}, &hold, release, steerSignal{nil, &sync.Once{}}}
			}))
			body := func(text string) string { return userBody(proto, "x1", text) }
			// The run waits in its delegate call for the child's approval.
			wantApprovalRequest(t, "first stream", s.srv.URL, body("clean up"), "call_d/d1")
			th, returned := threadReturned(s.h, "x1")
			firstRun := th.r.Snapshot().RunID

			// The run is stopped in its delegate call and returns, the
			// child's events held from the thread's log; the next message
			// starts a run that ends before the log has them.
			hold.Store(true)
			if err := th.r.(childHeldRunner).Abort(context.Background(), contract.AbortNow); err != nil {
				t.Fatal(err)
			}
			<-returned
			next := postLater(s.srv.URL, body("tidy the docs"))
			waitFor(t, func() bool { s := th.r.Snapshot(); return s.RunID != firstRun && s.Phase == contract.PhaseSettled })
			letGo()
			a := answerOK(t, "next post", next)
			got := foldLines(t, proto, dir, a.body)
			if diff := cmp.Diff([]string{"text: Tidied."}, got); diff != "" {
				t.Errorf("what the client rebuilt from the next post's stream mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
