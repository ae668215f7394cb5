package tracing_test

import (
	"encoding/json"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/codes"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
)

// TestOutputFaultLeavesOutTheAnswer: a run whose final answers never
// match its output schema faults with the schema's verdict, which quotes
// what the model answered ("pattern: "4321" does not match ..."): that is
// content, so with Content off the run's span fails with error.type
// output and names the schema, but not the answer.
func TestOutputFaultLeavesOutTheAnswer(t *testing.T) {
	const private = "4321"
	schema := json.RawMessage(`{"type":"object","properties":{"pin":{"type":"string","pattern":"^[a-z]+$"}},"required":["pin"]}`)
	cfg := contract.AgentConfig{Model: "m", Output: &contract.OutputSchema{Name: "login", Schema: schema, MaxRetries: -1}}
	for _, content := range []bool{false, true} {
		spans := run(t, cfg, scripted.New(scripted.Reply{Text: `{"pin":"` + private + `"}`}), tracing.Options{Content: content})
		root := find(t, spans, "invoke_agent baton")
		if root.Status.Code != codes.Error || attrs(root)["error.type"] != string(contract.KindOutput) {
			t.Fatalf("run span: status %+v, attributes %v, want an output fault", root.Status, attrs(root))
		}
		if d := root.Status.Description; !strings.Contains(d, `output schema "login"`) {
			t.Errorf("run span says %q, want the schema named", d)
		}
		said := []string{root.Status.Description}
		for _, e := range root.Events {
			for _, kv := range e.Attributes {
				said = append(said, kv.Value.String())
			}
		}
		leaked := strings.Contains(strings.Join(said, "\n"), private)
		if leaked != content {
			t.Errorf("Content %v: the run span quotes the answer %v: %q", content, leaked, said)
		}
	}
}
