package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// TestSteeringCannotOfferNewTools: the tools a run offers are fixed when
// it starts, so input for the run in flight that brings a tool the run
// does not have is refused rather than delivered without it; the model
// would be told of a tool it cannot call. Tools the run already has (a
// host that hands the same tools to every Submit) are fine.
func TestSteeringCannotOfferNewTools(t *testing.T) {
	tool := func(name string) dispatch.Tool {
		return rawTool(t, name, func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
			return contract.ToolOutcome{Content: name}, nil
		})
	}
	release := make(chan struct{})
	m := &fakeModel{replies: []replyFunc{blockUntil(release, say("first")), say("second")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, echoTool(t))))
	first := make(chan submitted, 1)
	go func() {
		snap, err := a.Submit(context.Background(), conductor.Input{Text: "go", Tools: []dispatch.Tool{tool("lookup")}})
		first <- submitted{snap, err}
	}()
	waitPhase(t, a, contract.PhaseAwaitingModel)

	for _, tc := range []struct {
		name string
		send func() error
	}{
		{"steer", func() error {
			return a.Steer(ctxT(t), conductor.Input{Text: "use search", Tools: []dispatch.Tool{tool("search")}})
		}},
		{"follow-up", func() error {
			return a.FollowUp(ctxT(t), conductor.Input{Text: "use search", Tools: []dispatch.Tool{tool("search")}})
		}},
		{"submit", func() error {
			_, err := a.Submit(ctxT(t), conductor.Input{Text: "use search", Tools: []dispatch.Tool{tool("search")}})
			return err
		}},
	} {
		if err := tc.send(); !errors.Is(err, contract.ErrConfig) {
			t.Errorf("%s with a tool the run lacks: err %v, want a config error", tc.name, err)
		}
	}
	if q := a.Snapshot().Queued; len(q) != 0 {
		t.Errorf("refused input was queued: %+v", q)
	}
	if err := a.Steer(ctxT(t), conductor.Input{Text: "carry on", Tools: []dispatch.Tool{tool("lookup"), echoTool(t)}}); err != nil {
		t.Errorf("steer with the run's own tools: %v", err)
	}
	close(release)
	if res := <-first; res.err != nil {
		t.Fatal(res.err)
	}
}
