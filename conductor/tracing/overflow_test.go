package tracing_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/codes"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
)

// TestOverflowedModelCallFails: a model call that fails because the
// context is full is answered by compacting the history and calling the
// model again, and no event ends the failed call; its chat span must
// still end in error, with error.type context_overflow, not pass for a
// call that succeeded.
func TestOverflowedModelCallFails(t *testing.T) {
	model := summarizing{scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "echo", Arguments: `{"text":"one"}`}}},
		scripted.Reply{Calls: []scripted.Call{{ID: "c2", Name: "echo", Arguments: `{"text":"two"}`}}},
		scripted.Reply{Fail: &scripted.Failure{Status: 400, Kind: contract.FailContextOverflow, Message: "prompt is too long"}},
		scripted.Reply{Text: "done"},
	)}
	cfg := contract.AgentConfig{Model: "m", Compaction: contract.CompactionPolicy{KeepRecent: 1}}
	spans := run(t, cfg, model, tracing.Options{})
	var chats []string
	for _, s := range spans {
		if s.Name != "chat m" {
			continue
		}
		chats = append(chats, s.StartTime.Format("15:04:05")+" "+s.Status.Code.String()+" "+attrs(s)["error.type"])
	}
	if len(chats) == 0 {
		t.Fatal("no chat spans")
	}
	var failed int
	for _, s := range spans {
		if s.Name == "chat m" && s.Status.Code == codes.Error {
			failed++
			if got := attrs(s)["error.type"]; got != string(contract.FailContextOverflow) {
				t.Errorf("overflowed call's error.type %q, want %q", got, contract.FailContextOverflow)
			}
		}
	}
	if diff := cmp.Diff(1, failed); diff != "" {
		t.Errorf("failed chat spans (-want +got):\n%s\nchats: %v\ntree: %v", diff, chats, tree(spans))
	}
}
