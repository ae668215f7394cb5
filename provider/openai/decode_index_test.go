package openai

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/openai/openai-go/v3"

	"github.com/batonrt/baton/turn"
)

// Some OpenAI-compatible servers send parallel tool calls one after the
// other, all at index 0 (or with no index): a new call id starts a new
// call instead of merging its arguments into the previous one.
func TestDecodeParallelCallsSharingAnIndex(t *testing.T) {
	frames := []string{
		`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}}]}}]}`,
		`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]}}]}`,
		`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_b","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Tokyo\"}"}}]}}]}`,
		`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
	}
	var d decoder
	var got []turn.Chunk
	for _, f := range frames {
		var c sdk.ChatCompletionChunk
		if err := json.Unmarshal([]byte(f), &c); err != nil {
			t.Fatal(err)
		}
		got = append(got, d.Decode(c)...)
	}
	want := []turn.Chunk{
		said("m", "x"),
		{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "call_a", Name: "get_weather"},
		{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `{"city":`},
		{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `"Paris"}`},
		{Kind: turn.ChunkToolCallStart, Index: 1, CallID: "call_b", Name: "get_weather"},
		{Kind: turn.ChunkToolCallArgs, Index: 1, Text: `{"city":"Tokyo"}`},
		{Kind: turn.ChunkToolCallEnd, Index: 0},
		{Kind: turn.ChunkToolCallEnd, Index: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("chunks mismatch (-want +got):\n%s", diff)
	}
}

// An id that arrives only after a call's first delta names that call; it
// does not start another.
func TestDecodeLateCallID(t *testing.T) {
	frames := []string{
		`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}}]}}]}`,
		`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","function":{"arguments":"\"Paris\"}"}}]}}]}`,
	}
	var d decoder
	starts := 0
	for _, f := range frames {
		var c sdk.ChatCompletionChunk
		if err := json.Unmarshal([]byte(f), &c); err != nil {
			t.Fatal(err)
		}
		for _, ch := range d.Decode(c) {
			if ch.Kind == turn.ChunkToolCallStart {
				starts++
			}
		}
	}
	if starts != 1 {
		t.Fatalf("%d calls started, want 1", starts)
	}
}
