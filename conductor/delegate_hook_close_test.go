package conductor_test

import (
	"context"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestCloseWhileABeforeHookGuardsADelegateCall: a before_tool hook that
// takes its time over a delegate call (it asks a policy service, and
// gives up when its context ends) runs before the child is known to
// begin. Close asks, on the agent's loop, whether the run waits only for
// people, which waits for the child to begin or not; the hook's context
// ends only with the abort Close applies after that answer. Close must
// not hang (until the delegate's 24h timeout).
func TestCloseWhileABeforeHookGuardsADelegateCall(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{
		callTools(call{"d1", "delegate_helper", `{"task":"look it up"}`}),
		say("the child ran"),
		say("parent done"),
	}}
	deps := testDeps(m, toolBox(t))
	entered, release := make(chan struct{}), make(chan struct{})
	deps.Hooks.BeforeTool("policy", 0, func(ctx context.Context, c *contract.ToolCall) (conductor.Verdict, error) {
		close(entered)
		select {
		case <-ctx.Done():
			return conductor.Verdict{}, ctx.Err()
		case <-release:
			return conductor.Verdict{}, nil
		}
	})
	cfg := contract.AgentConfig{Model: "gpt-4o", Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "gpt-4o"}}}}
	a, err := conductor.CreateAgent(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	done := submitAsync(a, "go")
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the hook never saw the delegate call")
	}
	closed := make(chan error, 1)
	go func() { closed <- a.Close() }()
	select {
	case <-closed:
		<-done
	case <-time.After(10 * time.Second):
		close(release) // let the test end
		<-closed
		t.Fatal("Close still waits 10s on, for a before_tool hook that waits for the abort Close would apply")
	}
}
