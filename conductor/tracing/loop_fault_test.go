package tracing_test

import (
	"strings"
	"testing"

	"go.opentelemetry.io/otel/codes"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
)

// TestLoopFaultLeavesOutArguments: the loop guard's fault quotes the
// call it saw repeated, arguments and all, and those are content: with
// Content off the run's span fails with error.type loop and says so,
// but not what the arguments were.
func TestLoopFaultLeavesOutArguments(t *testing.T) {
	const private = "my PIN is 4321"
	model := scripted.Repeat(scripted.Reply{Calls: []scripted.Call{{ID: "c", Name: "echo", Arguments: `{"text":"` + private + `"}`}}}, 0)
	cfg := contract.AgentConfig{Model: "m", LoopGuard: contract.LoopGuard{Warn: 2, Critical: 3}}
	spans := run(t, cfg, model, tracing.Options{})
	root := find(t, spans, "invoke_agent baton")
	if root.Status.Code != codes.Error || attrs(root)["error.type"] != string(contract.KindLoop) {
		t.Fatalf("run span: status %+v, attributes %v, want a loop fault", root.Status, attrs(root))
	}
	if d := root.Status.Description; !strings.Contains(d, "the call echo") || !strings.HasSuffix(d, "repeated 3 times") {
		t.Errorf("run span says %q, want the tool and the count", d)
	}
	for _, s := range spans {
		said := []string{s.Status.Description}
		for _, kv := range s.Attributes {
			said = append(said, kv.Value.String())
		}
		for _, e := range s.Events {
			for _, kv := range e.Attributes {
				said = append(said, kv.Value.String())
			}
		}
		for _, x := range said {
			if strings.Contains(x, "4321") {
				t.Errorf("span %q says the call's arguments with Content off: %q", s.Name, x)
			}
		}
	}
}
