package anthropic

import (
	"encoding/json"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestDecodeResponse: the model and id message_start names come once, as
// the first chunk, with the first chunk the reply yields; message_start
// yields nothing of its own.
func TestDecodeResponse(t *testing.T) {
	start := func(id, model string) string {
		return `{"type":"message_start","message":{"id":"` + id + `","type":"message","role":"assistant","model":"` + model + `","content":[],"usage":{"input_tokens":3,"output_tokens":1}}}`
	}
	const (
		block = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
		hi    = `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}`
		ended = `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}`
	)
	u := usage(3, 2, 0)
	tests := []struct {
		name   string
		events []string
		want   [][]turn.Chunk // per event, then End
	}{
		{"told with the first text", []string{start("msg_1", "claude-m-1"), block, hi, ended},
			[][]turn.Chunk{nil, nil, {said("claude-m-1", "msg_1"), text("Hi")}, nil, {u, stop(contract.StopEndTurn)}}},
		{"no content: told with the stop", []string{start("msg_1", "claude-m-1"), ended},
			[][]turn.Chunk{nil, nil, {said("claude-m-1", "msg_1"), u, stop(contract.StopEndTurn)}}},
		{"a message_start that names nothing", []string{start("", ""), hi, ended},
			[][]turn.Chunk{nil, {text("Hi")}, nil, {u, stop(contract.StopEndTurn)}}},
		{"a second message_start is not a second reply", []string{start("msg_1", "claude-m-1"), hi, start("msg_2", "claude-m-2"), hi, ended},
			[][]turn.Chunk{nil, {said("claude-m-1", "msg_1"), text("Hi")}, nil, {text("Hi")}, nil, {u, stop(contract.StopEndTurn)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d decoder
			var got [][]turn.Chunk
			for _, e := range tt.events {
				var ev sdk.MessageStreamEventUnion
				if err := json.Unmarshal([]byte(e), &ev); err != nil {
					t.Fatal(err)
				}
				got = append(got, d.Decode(ev))
			}
			end, err := d.End()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, end)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("chunks per event mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
