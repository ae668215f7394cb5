package turntest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestResponseFirst: the response_chunk rule passes a stream with one
// response chunk before its content, or none, and says why it fails one
// with two, or with one after the content began.
func TestResponseFirst(t *testing.T) {
	resp := turn.Chunk{Kind: turn.ChunkResponse, Name: "m", Text: "r1"}
	text := turn.Chunk{Kind: turn.ChunkText, Text: "Hi."}
	usage := turn.Chunk{Kind: turn.ChunkUsage, Usage: contract.Usage{InputTokens: 3}}
	stop := turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}
	for _, tc := range []struct {
		name     string
		attempts [][]turn.Chunk
		want     []string
	}{
		{"none", [][]turn.Chunk{{text, stop}}, nil},
		{"first", [][]turn.Chunk{{resp, text, usage, stop}}, nil},
		{"after usage", [][]turn.Chunk{{usage, resp, text, stop}}, nil},
		{"one per attempt", [][]turn.Chunk{{resp, text}, {resp, text, stop}}, nil},
		{"twice", [][]turn.Chunk{{resp, text, stop}, {resp, resp, text, stop}}, []string{
			`attempt 2 streamed a second response chunk ("m", "r1"): a reply has one model and one id, said once`,
		}},
		{"after content", [][]turn.Chunk{{text, resp, stop}}, []string{
			`attempt 1 streamed its response chunk ("m", "r1") after a text chunk: it comes before the reply's first content chunk and its stop`,
		}},
		{"after stop", [][]turn.Chunk{{stop, resp}}, []string{
			`attempt 1 streamed its response chunk ("m", "r1") after a stop chunk: it comes before the reply's first content chunk and its stop`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, responseFirst(tc.attempts)); diff != "" {
				t.Errorf("responseFirst mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
