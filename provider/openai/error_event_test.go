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

// TestErrorEventEndsReply: a server that names an event "error", as the
// Responses API and some gateways do, has failed the reply whatever the
// event's data says. The text before it is not a whole reply, even when
// [DONE] follows, and the failure says what the server said.
func TestErrorEventEndsReply(t *testing.T) {
	const hel = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}` + "\n\n"
	type want struct {
		Failure contract.FailureKind
		Message string
	}
	tests := []struct {
		name  string
		event string
		want  want
	}{
		{"typed, then done", "event: error\ndata: {\"type\":\"error\",\"code\":\"server_error\",\"message\":\"Overloaded\"}\n\ndata: [DONE]\n\n",
			want{contract.FailServer, "openai: error frame in stream: Overloaded"}},
		{"typed, then end", "event: error\ndata: {\"type\":\"rate_limit_exceeded\",\"message\":\"Slow down\"}\n\n",
			want{contract.FailRateLimited, "openai: error frame in stream: Slow down"}},
		{"wrapped", "event: error\ndata: {\"error\":{\"type\":\"server_error\",\"message\":\"Overloaded\"}}\n\ndata: [DONE]\n\n",
			want{contract.FailServer, "openai: error frame in stream: Overloaded"}},
		{"plain text", "event: error\ndata: upstream went away\n\ndata: [DONE]\n\n",
			want{contract.FailStream, "openai: error frame in stream: upstream went away"}},
		{"data before its name", "data: {\"message\":\"Overloaded\",\"type\":\"server_error\"}\nevent: error\n\ndata: [DONE]\n\n",
			want{contract.FailServer, "openai: error frame in stream: Overloaded"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := transcripttest.Serve(t, []byte("### HTTP 200\nContent-Type: text/event-stream\n\n"+hel+tt.event))
			p := New(endpoint.BaseURL(s.URL), endpoint.HTTPClient(s.Client()))
			chunks, err := transcripttest.Collect(context.Background(), p, basicRequest())
			if diff := cmp.Diff([]turn.Chunk{{Kind: turn.ChunkResponse, Name: "m", Text: "c"}, {Kind: turn.ChunkText, Text: "Hel"}}, chunks); diff != "" {
				t.Errorf("chunks mismatch (-want +got):\n%s", diff)
			}
			if err == nil {
				t.Fatal("the reply was taken as whole; want the error event's failure")
			}
			pe := transcripttest.FailureOf(t, err)
			if diff := cmp.Diff(tt.want, want{pe.Failure, pe.Message}); diff != "" {
				t.Errorf("failure mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
