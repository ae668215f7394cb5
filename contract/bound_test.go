package contract_test

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// EncodedBound must never fall short of the encoding: a store takes a
// reply or a tool's result unencoded when the bound says it fits, and a
// record that then encodes larger would be one the store cannot keep.
func TestEncodedBoundHoldsForEveryRecord(t *testing.T) {
	worst := []string{"\x00", "\x1f", "\xff", "\u2028", "\u2029", `"`, `\`, "<", "é", "\U0001F600"}
	text := rapid.OneOf(
		rapid.String(),
		rapid.StringOf(rapid.SampledFrom([]rune{0, 0x1f, 0x2028, 0xFFFD, '"', '\\'})),
		rapid.Custom(func(t *rapid.T) string {
			return strings.Repeat(rapid.SampledFrom(worst).Draw(t, "unit"), rapid.IntRange(0, 4000).Draw(t, "n"))
		}),
		rapid.Custom(func(t *rapid.T) string { return string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")) }),
	)
	texts := rapid.SliceOfN(text, 0, 3)
	block := rapid.Custom(func(t *rapid.T) contract.Block {
		b := contract.Block{Kind: contract.BlockKind(text.Draw(t, "kind")), Text: text.Draw(t, "text"), Signature: text.Draw(t, "sig")}
		if rapid.Bool().Draw(t, "call") {
			b.Call = &contract.ToolCall{ID: text.Draw(t, "id"), Name: text.Draw(t, "name"), Arguments: text.Draw(t, "args")}
		}
		if rapid.Bool().Draw(t, "result") {
			b.Result = &contract.ToolResult{CallID: text.Draw(t, "id"), Name: text.Draw(t, "name"), Content: text.Draw(t, "content"), IsError: rapid.Bool().Draw(t, "err")}
		}
		if rapid.Bool().Draw(t, "image") {
			b.Image = &contract.ImageRef{URI: text.Draw(t, "uri"), MediaType: text.Draw(t, "type")}
		}
		return b
	})
	big := rapid.Int64()
	replied := rapid.Custom(func(t *rapid.T) contract.Signal {
		var keys []contract.CallKeys
		for range rapid.IntRange(0, 3).Draw(t, "keys") {
			keys = append(keys, contract.CallKeys{Call: rapid.Int().Draw(t, "call"), Keys: texts.Draw(t, "keys")})
		}
		return contract.ModelReplied{
			Reply: contract.Turn{Role: contract.Role(text.Draw(t, "role")), Blocks: rapid.SliceOfN(block, 0, 4).Draw(t, "blocks"),
				Mark: contract.TurnMark(text.Draw(t, "mark")), Tokens: rapid.Int().Draw(t, "tokens"), Excluded: rapid.Bool().Draw(t, "excluded"), ClientID: text.Draw(t, "client")},
			Usage: contract.Usage{InputTokens: big.Draw(t, "in"), OutputTokens: big.Draw(t, "out"), CachedTokens: big.Draw(t, "cached"),
				ReasoningTokens: big.Draw(t, "reasoning"), ModelCalls: big.Draw(t, "calls"), ToolCalls: big.Draw(t, "tools"), WallNanos: big.Draw(t, "wall")},
			Stop: contract.StopReason(text.Draw(t, "stop")), Keys: keys, RewrittenBy: texts.Draw(t, "rewritten"),
			OutputError: text.Draw(t, "output error"), At: contract.Timestamp(big.Draw(t, "at")),
		}
	})
	settled := rapid.Custom(func(t *rapid.T) contract.Signal {
		return contract.ToolSettled{CallID: text.Draw(t, "id"),
			Outcome:   contract.ToolOutcome{Content: text.Draw(t, "content"), IsError: rapid.Bool().Draw(t, "err"), Truncated: rapid.Bool().Draw(t, "cut")},
			Arguments: text.Draw(t, "args"), RewrittenBy: texts.Draw(t, "rewritten"), Tokens: rapid.Int().Draw(t, "tokens"), At: contract.Timestamp(big.Draw(t, "at"))}
	})
	rapid.Check(t, func(t *rapid.T) {
		r := contract.Record{Step: rapid.Uint64().Draw(t, "step"), Signal: rapid.OneOf(replied, settled).Draw(t, "signal"), Effects: text.Draw(t, "effects")}
		bound, ok := contract.EncodedBound(r)
		if !ok {
			t.Fatalf("EncodedBound does not know %T, which RecordAlwaysEncodes names", r.Signal)
		}
		b, err := contract.AppendRecord(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > bound {
			t.Fatalf("record encodes to %d bytes, over its bound %d: a store would take it unencoded and then hold a node over its limit", len(b), bound)
		}
	})
}

// Every signal RecordAlwaysEncodes names has a bound: a store keeps
// those unencoded, so it must size them without encoding.
func TestEncodedBoundKnowsWhatAlwaysEncodes(t *testing.T) {
	for _, sig := range []contract.Signal{contract.ModelReplied{}, contract.ToolSettled{}, contract.ToolStarted{}, contract.Submitted{}} {
		_, ok := contract.EncodedBound(contract.Record{Step: 1, Signal: sig})
		if ok != contract.RecordAlwaysEncodes(sig) {
			t.Errorf("EncodedBound of %T knows it: %v; RecordAlwaysEncodes: %v", sig, ok, contract.RecordAlwaysEncodes(sig))
		}
	}
}
