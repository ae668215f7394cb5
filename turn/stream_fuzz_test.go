package turn_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

var fuzzKinds = []turn.ChunkKind{
	turn.ChunkText, turn.ChunkThinking, turn.ChunkToolCallStart, turn.ChunkToolCallArgs,
	turn.ChunkToolCallEnd, turn.ChunkUsage, turn.ChunkStop, turn.ChunkRedactedThinking, "bogus",
}

var fuzzFragments = []string{"", "a", " ", `{"`, `city`, `":`, `"Paris"`, `}`, `,`, `'`, "é", "\x00"}

// decodeChunks reads a chunk stream from bytes, three per chunk: kind,
// index and fragment.
func decodeChunks(b []byte) []turn.Chunk {
	var cs []turn.Chunk
	for i := 0; i+2 < len(b); i += 3 {
		c := turn.Chunk{Kind: fuzzKinds[int(b[i])%len(fuzzKinds)], Index: int(b[i+1] % 4), Text: fuzzFragments[int(b[i+2])%len(fuzzFragments)]}
		switch c.Kind {
		case turn.ChunkToolCallStart:
			c.CallID, c.Name = "id"+c.Text, c.Text
		case turn.ChunkThinking, turn.ChunkRedactedThinking:
			c.Signature = c.Text
		case turn.ChunkUsage:
			c.Usage = contract.Usage{InputTokens: int64(b[i+2])}
		case turn.ChunkStop:
			c.Stop = contract.StopReason(c.Text)
		}
		cs = append(cs, c)
	}
	return cs
}

// checkStream drives one attempt over chunks and checks what any stream
// must give: one signal, text deltas equal to the reply's text, arguments
// that are JSON objects or the model's own text, a known stop reason, and
// every redacted thinking chunk with data kept as its own block, verbatim
// and in order.
func checkStream(t interface{ Fatalf(string, ...any) }, chunks []turn.Chunk) {
	var deltas strings.Builder
	var redacted []string
	for _, c := range chunks {
		if c.Kind == turn.ChunkRedactedThinking && c.Signature != "" {
			redacted = append(redacted, c.Signature)
		}
	}
	opts := turn.Options{MaxRetries: turn.NoRetries}
	sig := turn.NewDriver(sliceProvider(chunks), opts).Run(context.Background(), weatherReq, func(ev *contract.RunEvent) {
		if ev.Kind == contract.EvTextDelta {
			deltas.WriteString(ev.Text)
		}
	})
	switch s := sig.(type) {
	case contract.ModelFailed:
		if s.Message == "" || s.Failure == "" {
			t.Fatalf("failure without kind or message: %#v", s)
		}
	case contract.ModelReplied:
		if s.Reply.Text() != deltas.String() {
			t.Fatalf("reply text %q, deltas %q", s.Reply.Text(), deltas.String())
		}
		switch s.Stop {
		case contract.StopEndTurn, contract.StopToolUse, contract.StopMaxTokens, contract.StopRefusal:
		default:
			t.Fatalf("unknown stop %q passed through", s.Stop)
		}
		var kept []string
		for _, b := range s.Reply.Blocks {
			if b.Kind == contract.BlockRedactedThinking {
				kept = append(kept, b.Signature)
			}
		}
		if !slices.Equal(redacted, kept) {
			t.Fatalf("redacted thinking %q, reply kept %q", redacted, kept)
		}
		for _, c := range s.Reply.Calls() {
			var obj map[string]any
			if json.Unmarshal([]byte(c.Arguments), &obj) != nil {
				if _, ok := turn.RepairArguments(c.Arguments); ok {
					t.Fatalf("repairable arguments %q left unrepaired", c.Arguments)
				}
			}
		}
	default:
		t.Fatalf("unexpected signal %T", sig)
	}
}

func FuzzDriverStream(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 0, 2, 6, 0, 0})
	f.Add([]byte{2, 0, 4, 3, 0, 3, 3, 0, 4, 3, 0, 5, 3, 0, 6, 6, 0, 0})
	f.Add([]byte{1, 0, 1, 5, 0, 9, 2, 1, 4, 3, 1, 8, 4, 1, 0, 6, 1, 3})
	f.Fuzz(func(t *testing.T, b []byte) { checkStream(t, decodeChunks(b)) })
}

func TestDriverStreamProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkStream(t, decodeChunks(rapid.SliceOfN(rapid.Byte(), 0, 90).Draw(t, "stream")))
	})
}
