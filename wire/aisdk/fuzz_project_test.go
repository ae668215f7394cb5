package aisdk

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
)

// FuzzProjectTurn feeds the projector a model call streamed in random
// pieces (a prefix of the turn's text, maybe after a retried attempt that
// streamed something else), then the stored turn: the text a client
// assembles from the parts of the last attempt equals the stored turn's
// text, and every part it opened is closed.
func FuzzProjectTurn(f *testing.F) {
	f.Add("Hello, world", []byte{3, 4}, uint8(7), "Hel")
	f.Add("", []byte{}, uint8(0), "")
	f.Add("abc", []byte{1, 1, 1}, uint8(3), "")
	f.Fuzz(func(t *testing.T, final string, splits []byte, cut uint8, broken string) {
		k := min(int(cut), len(final))
		p := NewProjector("t")
		var out []Chunk
		push := func(ev contract.RunEvent) {
			ev.SessionID, ev.RunID = "t", "r"
			out = append(out, p.Project(ev)...)
		}
		push(contract.RunEvent{Seq: 1, Kind: contract.EvRunStarted})
		var delta uint32
		if broken != "" {
			delta++
			push(contract.RunEvent{Seq: 1, Delta: delta, Kind: contract.EvTextDelta, Text: broken})
			push(contract.RunEvent{Seq: 1, Kind: contract.EvModelRetry, Text: "retry"})
		}
		retried := len(out)
		for rest := final[:k]; rest != ""; {
			n := len(rest)
			if len(splits) > 0 {
				n = max(1, min(n, int(splits[0])))
				splits = splits[1:]
			}
			delta++
			push(contract.RunEvent{Seq: 1, Delta: delta, Kind: contract.EvTextDelta, Text: rest[:n]})
			rest = rest[n:]
		}
		turn := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock(final)}}
		push(contract.RunEvent{Seq: 2, Kind: contract.EvTurnCompleted, Turn: &turn})
		push(contract.RunEvent{Seq: 3, Kind: contract.EvRunSettled})
		var got strings.Builder
		open := map[string]bool{}
		for i, c := range out {
			switch c.Type {
			case TextStart:
				open[c.ID] = true
			case TextEnd:
				delete(open, c.ID)
			case TextDelta:
				if !open[c.ID] {
					t.Fatalf("delta for %s, which is not open", c.ID)
				}
				if i >= retried {
					got.WriteString(c.Delta)
				}
			}
		}
		if got.String() != final {
			t.Fatalf("client assembled %q, the stored turn says %q", got.String(), final)
		}
		if len(open) > 0 {
			t.Fatalf("left open: %v", open)
		}
	})
}
