package turn_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// A signature signs the one thinking block it ends. A reply with two
// thinking blocks in a row keeps them apart, each with its own signature:
// joined, their text under both signatures would be refused when sent
// back ("invalid signature in thinking block"), which stops the tool
// loop the reply began.
func TestSignedThinkingBlocksStayApart(t *testing.T) {
	thinking := func(text, sig string) turn.Chunk {
		return turn.Chunk{Kind: turn.ChunkThinking, Text: text, Signature: sig}
	}
	tests := []struct {
		name   string
		chunks []turn.Chunk
		want   []contract.Block
	}{
		{
			name: "signature after the text",
			chunks: []turn.Chunk{
				thinking("First ", ""), thinking("step.", ""), thinking("", "sig-"), thinking("", "A"),
				thinking("Second step.", ""), thinking("", "sig-B"), text("Done."), stop(contract.StopEndTurn),
			},
			want: []contract.Block{
				{Kind: contract.BlockThinking, Text: "First step.", Signature: "sig-A"},
				{Kind: contract.BlockThinking, Text: "Second step.", Signature: "sig-B"},
				{Kind: contract.BlockText, Text: "Done."},
			},
		},
		{
			name: "signature with the text",
			chunks: []turn.Chunk{
				thinking("First step.", "sig-A"), thinking("Second step.", "sig-B"), text("Done."), stop(contract.StopEndTurn),
			},
			want: []contract.Block{
				{Kind: contract.BlockThinking, Text: "First step.", Signature: "sig-A"},
				{Kind: contract.BlockThinking, Text: "Second step.", Signature: "sig-B"},
				{Kind: contract.BlockText, Text: "Done."},
			},
		},
		{
			name:   "unsigned thinking joins",
			chunks: []turn.Chunk{thinking("First ", ""), thinking("step.", ""), text("Done."), stop(contract.StopEndTurn)},
			want: []contract.Block{
				{Kind: contract.BlockThinking, Text: "First step."},
				{Kind: contract.BlockText, Text: "Done."},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply, _ := replyOf(t, tt.chunks)
			if diff := cmp.Diff(tt.want, reply.Reply.Blocks); diff != "" {
				t.Errorf("blocks mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
