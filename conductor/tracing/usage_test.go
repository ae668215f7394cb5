package tracing_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
)

// TestUnreportedUsageIsLeftOut: a provider that reports no usage (many
// local servers, a stream without its usage chunk) made a call of unknown
// cost, not a free one: the chat span carries no token counts rather than
// zeros a cost dashboard would add up.
func TestUnreportedUsageIsLeftOut(t *testing.T) {
	spans := run(t, contract.AgentConfig{Model: "m"}, scripted.New(scripted.Reply{Text: "done"}), tracing.Options{})
	chat := attrs(find(t, spans, "chat m"))
	for _, key := range []string{"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.usage.cache_read.input_tokens"} {
		if v, ok := chat[key]; ok {
			t.Errorf("%s = %s for a call that reported no usage", key, v)
		}
	}
}

// TestReasoningTokens: the tokens a reasoning model spent thinking, which
// its output count includes, are the chat span's
// gen_ai.usage.reasoning.output_tokens.
func TestReasoningTokens(t *testing.T) {
	model := scripted.New(scripted.Reply{Text: "done", Usage: contract.Usage{InputTokens: 10, OutputTokens: 50, ReasoningTokens: 40}})
	chat := attrs(find(t, run(t, contract.AgentConfig{Model: "m"}, model, tracing.Options{}), "chat m"))
	got := map[string]string{}
	for _, key := range []string{"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.usage.reasoning.output_tokens"} {
		got[key] = chat[key]
	}
	want := map[string]string{"gen_ai.usage.input_tokens": "10", "gen_ai.usage.output_tokens": "50", "gen_ai.usage.reasoning.output_tokens": "40"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("usage attributes (-want +got):\n%s", diff)
	}
}

// TestRunUsage: a run's invoke_agent span carries the tokens of the whole
// run, its delegates' runs among them, as a delegate's span does its own.
func TestRunUsage(t *testing.T) {
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"help"}`}}, Usage: contract.Usage{InputTokens: 10, OutputTokens: 5, CachedTokens: 4}},
		scripted.Reply{Text: "helped", Usage: contract.Usage{InputTokens: 7, OutputTokens: 2, ReasoningTokens: 1}},
		scripted.Reply{Text: "done", Usage: contract.Usage{InputTokens: 20, OutputTokens: 3}},
	)
	cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "m"}}}}
	spans := run(t, cfg, model, tracing.Options{})
	keys := []string{"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.reasoning.output_tokens"}
	got := map[string][]string{}
	for _, name := range []string{"invoke_agent baton", "invoke_agent helper"} {
		a := attrs(find(t, spans, name))
		for _, k := range keys {
			got[name] = append(got[name], a[k])
		}
	}
	want := map[string][]string{
		"invoke_agent baton":  {"37", "10", "4", "1"},
		"invoke_agent helper": {"7", "2", "", "1"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("run usage (-want +got) of %v:\n%s", keys, diff)
	}
}
