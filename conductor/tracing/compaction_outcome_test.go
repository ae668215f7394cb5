package tracing_test

import (
	"context"
	"iter"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/turn"
)

// summarizer answers summary requests with summary and the rest from a
// script.
type summarizer struct {
	*scripted.Script
	summary scripted.Reply
}

func (s summarizer) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	if req.System == turn.SummarySystem {
		return scripted.New(s.summary).Stream(ctx, req)
	}
	return s.Script.Stream(ctx, req)
}

// TestCompactionOutcome: a compaction span says how the compaction
// ended. A summary that replaced history is counted in
// baton.summary.bytes; one that would not have shrunk it was skipped, and
// a summary call that failed left the run to drop old tool outputs
// instead, an error on the span: neither counts its reason as a summary.
func TestCompactionOutcome(t *testing.T) {
	tests := []struct {
		name    string
		summary scripted.Reply
		want    map[string]string
	}{
		{"summarized", scripted.Reply{Text: "SUMMARY: echoes"}, map[string]string{
			"baton.compaction.outcome": "summarized", "baton.summary.bytes": "15", "status": "Unset"}},
		{"skipped", scripted.Reply{Text: strings.Repeat("a long summary ", 500)}, map[string]string{
			"baton.compaction.outcome": "skipped", "status": "Unset"}},
		{"fallback", scripted.Reply{Fail: &scripted.Failure{Status: 400, Message: "bad summary request"}}, map[string]string{
			"baton.compaction.outcome": "fallback", "error.type": "summary_failed", "status": "Error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := summarizer{scripted.New(
				scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "echo", Arguments: `{"text":"` + strings.Repeat("word ", 50) + `"}`}}},
				scripted.Reply{Calls: []scripted.Call{{ID: "c2", Name: "echo", Arguments: `{"text":"` + strings.Repeat("more ", 50) + `"}`}}},
				scripted.Reply{Text: "done"},
			), tt.summary}
			cfg := contract.AgentConfig{Model: "m", Compaction: contract.CompactionPolicy{MaxMessages: 4, KeepRecent: 2}}
			span := find(t, run(t, cfg, model, tracing.Options{}), "compaction")
			got := map[string]string{"status": span.Status.Code.String()}
			for k, v := range attrs(span) {
				if k != "gen_ai.operation.name" {
					got[k] = v
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("compaction span (-want +got):\n%s", diff)
			}
		})
	}
}
