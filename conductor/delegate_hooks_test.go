package conductor_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestBeforeToolHookBlocksDelegateCalls: a before_tool hook is the
// host's guard over what the model's tool calls do, and it fails closed.
// A delegate call is a tool call of the model's (delegate_NAME) that
// starts a whole child run, so a hook that blocks every call must see it
// and block it: the child never runs and the model gets the block.
func TestBeforeToolHookBlocksDelegateCalls(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{
		callTools(call{"d1", "delegate_helper", `{"task":"delete the backups"}`}),
		say("the child ran"), // what the child would answer
		say("parent done"),
	}}
	deps := testDeps(m, toolBox(t))
	var mu sync.Mutex
	var seen []string
	deps.Hooks.BeforeTool("deny-all", 0, func(_ context.Context, c *contract.ToolCall) (conductor.Verdict, error) {
		mu.Lock()
		seen = append(seen, c.Name)
		mu.Unlock()
		return conductor.Verdict{Block: "policy: no tool calls"}, nil
	})
	cfg := contract.AgentConfig{Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "gpt-4o"}}}}
	a := newAgent(t, cfg, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || seen[0] != "delegate_helper" {
		t.Errorf("before_tool hooks saw %v, want the delegate call", seen)
	}
	res := results(snap)
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].Content, "policy: no tool calls") {
		t.Errorf("delegate call's result %+v, want it blocked by the hook", res)
	}
	if n := len(m.Requests()); n != 2 {
		t.Errorf("%d model requests, want 2: the blocked child must not run", n)
	}
}

// TestAfterToolHookSeesADelegatesAnswer: an after_tool hook (one that
// redacts, say) sees the answer a delegate call brings back, as it sees
// any tool's result, and what it makes of it is what the parent's model
// reads.
func TestAfterToolHookSeesADelegatesAnswer(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{
		callTools(call{"d1", "delegate_helper", `{"task":"find the key"}`}),
		say("the key is sk-123"), // the child's answer
		say("parent done"),
	}}
	deps := testDeps(m, toolBox(t))
	deps.Hooks.AfterTool("redact", 0, func(_ context.Context, c contract.ToolCall, out *contract.ToolOutcome) error {
		out.Content = strings.ReplaceAll(out.Content, "sk-123", "[key]") + " (" + c.Name + ")"
		return nil
	})
	cfg := contract.AgentConfig{Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "gpt-4o"}}}}
	snap, err := newAgent(t, cfg, deps).Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	if res := results(snap); len(res) != 1 || res[0].Content != "the key is [key] (delegate_helper)" {
		t.Errorf("delegate call's result %+v, want the after hook's", res)
	}
}
