package openai

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestToolNameInPieces: some compatible servers stream a tool call's
// function name in pieces over several deltas, as they do its
// arguments. The pieces make the name; reading the first alone calls a
// tool that does not exist.
func TestToolNameInPieces(t *testing.T) {
	call := func(fn string) string {
		return `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[` + fn + `]},"finish_reason":null}]}`
	}
	finish := `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`
	tests := []struct {
		name   string
		frames []string
		want   []turn.Chunk
	}{
		{"name in two pieces", []string{
			call(`{"index":0,"id":"call_1","type":"function","function":{"name":"get_","arguments":""}}`),
			call(`{"index":0,"function":{"name":"weather"}}`),
			call(`{"index":0,"function":{"arguments":"{}"}}`),
			finish, "[DONE]",
		}, []turn.Chunk{said("m", "c"), start(0, "call_1"), args(0, "{}"), end(0), stop(contract.StopToolUse)}},
		{"name in pieces, no arguments", []string{
			call(`{"index":0,"id":"call_1","type":"function","function":{"name":"get"}}`),
			call(`{"index":0,"function":{"name":"_weather"}}`),
			finish, "[DONE]",
		}, []turn.Chunk{said("m", "c"), start(0, "call_1"), end(0), stop(contract.StopToolUse)}},
		{"the whole name sent again with each delta", []string{
			call(`{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather"}}`),
			call(`{"index":0,"function":{"name":"get_weather"}}`),
			call(`{"index":0,"function":{"name":"get_weather","arguments":"{}"}}`),
			finish, "[DONE]",
		}, []turn.Chunk{said("m", "c"), start(0, "call_1"), args(0, "{}"), end(0), stop(contract.StopToolUse)}},
		{"the name sent again as it grows", []string{
			call(`{"index":0,"id":"call_1","type":"function","function":{"name":"get"}}`),
			call(`{"index":0,"function":{"name":"get_weather"}}`),
			call(`{"index":0,"function":{"name":"get_weather","arguments":"{}"}}`),
			finish, "[DONE]",
		}, []turn.Chunk{said("m", "c"), start(0, "call_1"), args(0, "{}"), end(0), stop(contract.StopToolUse)}},
		{"second call after a name in pieces", []string{
			call(`{"index":0,"id":"call_1","type":"function","function":{"name":"get_wea"}}`),
			call(`{"index":0,"function":{"name":"ther"}}`),
			call(`{"index":1,"id":"call_2","type":"function","function":{"name":"get_weather","arguments":"{}"}}`),
			finish, "[DONE]",
		}, []turn.Chunk{said("m", "c"), start(0, "call_1"), start(1, "call_2"), args(1, "{}"), end(0), end(1), stop(contract.StopToolUse)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := serveStream(t, tt.frames...)
			p := New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client()))
			got, err := transcripttest.Collect(context.Background(), p, basicRequest())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("chunks mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
