package tracing_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
)

// TestChatSpansNameTheConversation: a chat span carries
// gen_ai.conversation.id, as the conventions ask of a model call when it
// is known: its run's session, a delegate's own for a delegate's call, so
// the calls of one conversation are found without walking up to its run.
func TestChatSpansNameTheConversation(t *testing.T) {
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"help"}`}}},
		scripted.Reply{Text: "helped"},
		scripted.Reply{Text: "done"},
	)
	cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "m"}}}}
	spans := run(t, cfg, model, tracing.Options{})
	byParent := map[string]string{}
	names := map[string]string{}
	runs := map[string]string{}
	for _, s := range spans {
		names[s.SpanContext.SpanID().String()] = s.Name
		if s.Name == "invoke_agent baton" || s.Name == "invoke_agent helper" {
			runs[s.Name] = attrs(s)["gen_ai.conversation.id"]
		}
	}
	for _, s := range spans {
		if s.Name == "chat m" {
			byParent[names[s.Parent.SpanID().String()]] += attrs(s)["gen_ai.conversation.id"] + ";"
		}
	}
	want := map[string]string{
		"invoke_agent baton":  runs["invoke_agent baton"] + ";" + runs["invoke_agent baton"] + ";",
		"invoke_agent helper": runs["invoke_agent helper"] + ";",
	}
	if runs["invoke_agent helper"] == "" || runs["invoke_agent helper"] == runs["invoke_agent baton"] {
		t.Fatalf("run conversations %v", runs)
	}
	if diff := cmp.Diff(want, byParent); diff != "" {
		t.Errorf("chat spans' gen_ai.conversation.id by parent (-want +got):\n%s", diff)
	}
}
