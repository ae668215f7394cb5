package conductor_test

import (
	"context"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

// A subscriber that lags while a delegate's child runs gets every event
// of the child, as one that kept up does: nothing brings a delegated
// run's events back later (EventsSince holds the root session's only),
// so they are never dropped. The root's own events it missed are counted
// by a lag notice whose Seq is the newest of them, so that EventsSince
// brings them back, and they end up whole.
func TestLaggingSubscriberGetsEveryDelegatedEvent(t *testing.T) {
	cfg := twoDelegates()
	for name, stall := range map[string]bool{"kept up": false, "lagging": true} {
		t.Run(name, func(t *testing.T) {
			release := make(chan struct{})
			model := agentsModel{
				"parent": func(ctx context.Context, req contract.ModelRequest) replyFunc {
					if lastResults(req) == nil {
						return callTools(call{"c1", "delegate_writer", `{"task":"a poem"}`})
					}
					// The child has ended: the stalled subscriber may go on.
					close(release)
					return say("done")
				},
				"writer": func(_ context.Context, req contract.ModelRequest) replyFunc {
					if lastResults(req) == nil {
						return callTools(call{"e1", "echo", `{"text":"roses"}`})
					}
					return say("roses")
				},
			}
			deps := testDeps(model, toolBox(t, echoTool(t)))
			deps.Env.EventBuffer = 1
			a := newAgent(t, cfg, deps)
			rec := &recorder{}
			first := true
			a.Subscribe(func(ev contract.RunEvent) {
				if stall && first {
					first = false
					<-release
				}
				rec.add(ev)
			})
			if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
				t.Fatal(err)
			}
			if err := a.Flush(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			stored, err := a.EventsSince(ctxT(t), 0)
			if err != nil {
				t.Fatal(err)
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			var child, root []string
			var last uint64
			line := func(ev contract.RunEvent) string {
				if ev.Call != nil {
					return string(ev.Kind) + " " + ev.Call.ID
				}
				return string(ev.Kind)
			}
			for _, ev := range rec.events {
				switch {
				case len(ev.Subflow) > 0:
					if ev.Delta == 0 {
						child = append(child, line(ev))
					}
				case ev.Kind == contract.EvLag:
					if ev.Seq == 0 {
						t.Errorf("lag notice of %d events names none of them", ev.Missed)
					}
					for _, s := range stored {
						if s.Seq > last && s.Seq <= ev.Seq {
							root, last = append(root, line(s)), s.Seq
						}
					}
				case ev.Delta == 0 && ev.Seq > last:
					root, last = append(root, line(ev)), ev.Seq
				}
			}
			want := []string{
				"run_started", "turn_started", "turn_completed", "tool_call e1", "tool_started e1", "tool_result e1",
				"turn_started", "turn_completed", "run_settled",
			}
			if diff := cmp.Diff(want, child); diff != "" {
				t.Errorf("delegated events mismatch (-want +got):\n%s", diff)
			}
			var wantRoot []string
			for _, s := range stored {
				wantRoot = append(wantRoot, line(s))
			}
			if diff := cmp.Diff(wantRoot, root); diff != "" {
				t.Errorf("root events, with those the lag notices name from the store, mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
