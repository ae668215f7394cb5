package tracing_test

import (
	"context"
	"iter"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// respondingModel replies "hi", saying which model answered and the
// reply's id, as OpenAI's and Anthropic's streams do.
type respondingModel struct{ model, id string }

func (m respondingModel) Stream(context.Context, contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		for _, c := range []turn.Chunk{
			{Kind: turn.ChunkResponse, Name: m.model, Text: m.id},
			{Kind: turn.ChunkText, Text: "hi"},
			{Kind: turn.ChunkStop, Stop: contract.StopEndTurn},
		} {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// TestChatSpanNamesTheResponse: a chat span carries
// gen_ai.response.model and gen_ai.response.id when the provider reports
// them, and leaves them out when it does not.
func TestChatSpanNamesTheResponse(t *testing.T) {
	for _, tc := range []struct {
		name      string
		model, id string
		want      map[string]string
	}{
		{"reported", "gpt-4o-2024-08-06", "chatcmpl-9x", map[string]string{"gen_ai.response.model": "gpt-4o-2024-08-06", "gen_ai.response.id": "chatcmpl-9x"}},
		{"not reported", "", "", map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spans := run(t, contract.AgentConfig{Model: "gpt-4o"}, respondingModel{tc.model, tc.id}, tracing.Options{})
			all := attrs(find(t, spans, "chat gpt-4o"))
			got := map[string]string{}
			for _, k := range []string{"gen_ai.response.model", "gen_ai.response.id"} {
				if v, ok := all[k]; ok {
					got[k] = v
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("chat span's response attributes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
