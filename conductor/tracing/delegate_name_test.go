package tracing_test

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
)

// TestDelegateSpanNamesItsAgent: a delegate's run is an invocation of
// the delegate, not of the root agent: its span is named invoke_agent
// {gen_ai.agent.name} with the delegate's name, and its conversation is
// the child's own session.
func TestDelegateSpanNamesItsAgent(t *testing.T) {
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"help"}`}}},
		scripted.Reply{Text: "helped"},
		scripted.Reply{Text: "done"},
	)
	cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "m"}}}}
	spans := run(t, cfg, model, tracing.Options{AgentName: "planner"})
	root := attrs(find(t, spans, "invoke_agent planner"))
	child := attrs(find(t, spans, "invoke_agent helper"))
	if root["gen_ai.agent.name"] != "planner" || root["gen_ai.conversation.id"] != "s1" {
		t.Errorf("root run attributes %v", root)
	}
	if child["gen_ai.agent.name"] != "helper" || !strings.HasPrefix(child["gen_ai.conversation.id"], "s1/") || child["gen_ai.tool.call.id"] != "d1" {
		t.Errorf("delegate run attributes %v", child)
	}
	for _, line := range tree(spans) {
		if line == "execute_tool delegate_helper > invoke_agent helper" {
			return
		}
	}
	t.Errorf("the delegate's span is not under its call's: %v", tree(spans))
}
