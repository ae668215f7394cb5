package turn_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// FuzzTextToolCall feeds arbitrary reply text to a driver reading text
// tool calls: it never panics, and a reply it turns into a call names an
// offered tool and carries a JSON object as arguments.
func FuzzTextToolCall(f *testing.F) {
	for _, s := range []string{
		`{"name": "get_weather", "arguments": {"city": "Oslo"}}`,
		"```json\n{\"tool\": \"search\", \"parameters\": \"{\\\"q\\\": 1}\"}\n```",
		`{"function": {"name": "get_weather", "arguments": "{}"}}`,
		`{"name": "nope"}`,
		`{"name": "search", "args": [1]}`,
		`{} {}`,
		`not json`,
	} {
		f.Add(s)
	}
	known := map[string]bool{"get_weather": true, "search": true}
	f.Fuzz(func(t *testing.T, text string) {
		opts := testOptions(&recorder{})
		opts.TextToolCalls = true
		got := turn.NewDriver(newFake(play{chunks: []turn.Chunk{{Kind: turn.ChunkText, Text: text}, stop(contract.StopEndTurn)}}), opts).Run(context.Background(), weatherReq, nil)
		rep, ok := got.(contract.ModelReplied)
		if !ok {
			t.Fatalf("got %#v", got)
		}
		for _, c := range rep.Reply.Calls() {
			var obj map[string]any
			if !known[c.Name] || json.Unmarshal([]byte(c.Arguments), &obj) != nil {
				t.Fatalf("text %q became call %+v", text, c)
			}
			if rep.Stop != contract.StopToolUse {
				t.Fatalf("a call with stop %s", rep.Stop)
			}
		}
	})
}
