package conductor_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestChildStoppedWithItsParentKeepsTheParentsReason: the runs of a
// tree three delegates deep, stopped because the root's run ended, each
// record the reason the root's run ended for (its context's end, the
// agent closed, the host's abort), not an abort by the host none of them
// had.
func TestChildStoppedWithItsParentKeepsTheParentsReason(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(a *conductor.Agent, cancel context.CancelFunc)
		want string
	}{
		{"context", func(_ *conductor.Agent, cancel context.CancelFunc) { cancel() }, "run aborted: submit context cancelled: context canceled"},
		{"close", func(a *conductor.Agent, _ context.CancelFunc) { _ = a.Close() }, "run aborted: agent closed"},
		{"abort", func(a *conductor.Agent, _ context.CancelFunc) { _ = a.Abort(context.Background(), contract.AbortNow) }, "run aborted: aborted by host"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, model := threeDeep(func(context.Context, contract.ModelRequest) replyFunc {
				return blockUntil(make(chan struct{}), say("never"))
			})
			a := newAgent(t, cfg, testDeps(model, toolBox(t)))
			rec := &recorder{}
			a.Subscribe(rec.add)
			ctx, cancel := context.WithCancel(ctxT(t))
			defer cancel()
			done := make(chan submitted, 1)
			go func() {
				s, err := a.Submit(ctx, conductor.Text("go"))
				done <- submitted{s, err}
			}()
			waitFor(t, deepStarted(rec))
			tc.stop(a, cancel)
			<-done
			if err := a.Flush(ctxT(t)); err != nil && !strings.Contains(err.Error(), "closed") {
				t.Fatal(err)
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			got := map[string]string{}
			for _, ev := range rec.events {
				if ev.Kind == contract.EvRunFaulted {
					got[strings.Join(ev.Subflow, "/")] = ev.Text
				}
			}
			want := map[string]string{"": tc.want, "r1": tc.want, "r1/o1": tc.want, "r1/o1/t1": tc.want}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("faults by subflow mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
