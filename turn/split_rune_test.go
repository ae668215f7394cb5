package turn_test

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// Servers that stream byte-level tokens may split a character between
// two chunks. The joined reply is whole, but a delta carrying half a
// character reaches a client as U+FFFD once encoded as JSON, and a client
// that spells the reply from its deltas shows it broken for good. Every
// delta must be UTF-8, and the deltas of each block must still spell it.
func TestDeltasNeverSplitARune(t *testing.T) {
	// 世 is e4 b8 96, ü is c3 bc, 😀 is f0 9f 98 80.
	tests := []struct {
		name   string
		chunks []turn.Chunk
		text   string
		think  string
		args   map[int]string
	}{
		{
			name:   "text",
			chunks: []turn.Chunk{text("Hello \xe4"), text("\xb8"), text("\x96 and \xf0\x9f"), text("\x98\x80!"), stop(contract.StopEndTurn)},
			text:   "Hello 世 and 😀!",
		},
		{
			name: "thinking",
			chunks: []turn.Chunk{
				{Kind: turn.ChunkThinking, Text: "Gr\xc3"}, {Kind: turn.ChunkThinking, Text: "\xbc\xc3"}, {Kind: turn.ChunkThinking, Text: "\xbce"},
				text("ok"), stop(contract.StopEndTurn),
			},
			text: "ok", think: "Grüüe",
		},
		{
			name: "arguments of calls streamed in turn",
			chunks: []turn.Chunk{
				callStart(0, "a", "get_weather"), callArgs(0, `{"city":"Z`), callStart(1, "b", "get_weather"),
				callArgs(0, "\xc3"), callArgs(1, "{\"city\":\"\xe4\xb8"), callArgs(0, "\xbcrich\"}"), callArgs(1, "\x96\"}"),
				callEnd(0), callEnd(1), stop(contract.StopToolUse),
			},
			args: map[int]string{0: `{"city":"Zürich"}`, 1: `{"city":"世"}`},
		},
		{
			name:   "a character the stream never finishes",
			chunks: []turn.Chunk{text("caf\xc3"), stop(contract.StopEndTurn)},
			text:   "caf\uFFFD",
		},
		{
			name: "a character a block never finishes, before the next block",
			chunks: []turn.Chunk{
				text("caf\xc3"), {Kind: turn.ChunkThinking, Text: "hm\xe4\xb8"}, {Kind: turn.ChunkThinking, Signature: "sig"},
				{Kind: turn.ChunkThinking, Text: "ok"}, text("d\xc3"), callStart(0, "a", "get_weather"), callArgs(0, "{}"), text("e"), stop(contract.StopEndTurn),
			},
			text: "caf\uFFFDd\uFFFDe", think: "hm\uFFFDok", args: map[int]string{0: "{}"},
		},
		{
			name:   "bytes that are no character",
			chunks: []turn.Chunk{text("a\xffb"), text("c"), stop(contract.StopEndTurn)},
			text:   "a\uFFFDbc",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply, r := replyOf(t, tt.chunks)
			var text, think string
			args := map[int]string{}
			for _, ev := range r.events {
				if !utf8.ValidString(ev.Text) {
					b, _ := json.Marshal(ev.Text)
					t.Errorf("%s delta %q is not UTF-8: a client reads %s", ev.Kind, ev.Text, b)
				}
				switch ev.Kind {
				case contract.EvTextDelta:
					text += ev.Text
				case contract.EvThinkingDelta:
					think += ev.Text
				case contract.EvToolCallDelta:
					args[ev.Index] += ev.Text
				}
			}
			var replyThink string
			for _, b := range reply.Reply.Blocks {
				if b.Kind == contract.BlockThinking {
					replyThink += b.Text
				}
			}
			replyArgs := map[int]string{}
			for i, c := range reply.Reply.Calls() {
				replyArgs[i] = c.Arguments
			}
			if tt.args == nil {
				tt.args = map[int]string{}
			}
			got := []any{reply.Reply.Text(), replyThink, replyArgs}
			if diff := cmp.Diff([]any{tt.text, tt.think, tt.args}, got); diff != "" {
				t.Errorf("reply mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(got, []any{text, think, args}); diff != "" {
				t.Errorf("deltas spell another reply (-reply +deltas):\n%s", diff)
			}
		})
	}
}
