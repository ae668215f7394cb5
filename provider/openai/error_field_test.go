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

// TestErrorFieldEndsReply: llama.cpp's server, in the builds of 2025,
// reports a failure at HTTP 200 as an SSE field of its own, "error:",
// followed by [DONE]. The SDK knows no such field and drops it: a
// prompt that does not fit failed as a broken stream, to be retried
// rather than compacted, and a reply cut short passed for a whole one.
func TestErrorFieldEndsReply(t *testing.T) {
	const (
		overflow = `error: {"code":400,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"invalid_request_error"}` + "\n\ndata: [DONE]\n\n"
		hel      = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}` + "\n\n"
		server   = `error: {"code":500,"message":"slot unavailable","type":"server_error"}` + "\n\ndata: [DONE]\n\n"
	)
	type want struct {
		Chunks  []turn.Chunk
		Failure contract.FailureKind
		Message string
	}
	tests := []struct {
		name, body string
		want       want
	}{
		{"before the reply", overflow, want{nil, contract.FailContextOverflow,
			"openai: error frame in stream: the request exceeds the available context size. try increasing the context size or enable context shift"}},
		{"mid-reply", hel + server, want{[]turn.Chunk{{Kind: turn.ChunkResponse, Name: "m", Text: "c"}, {Kind: turn.ChunkText, Text: "Hel"}}, contract.FailServer,
			"openai: error frame in stream: slot unavailable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := transcripttest.Serve(t, []byte("### HTTP 200\nContent-Type: text/event-stream\n\n"+tt.body))
			p := New(endpoint.BaseURL(s.URL), endpoint.HTTPClient(s.Client()))
			chunks, err := transcripttest.Collect(context.Background(), p, basicRequest())
			if err == nil {
				t.Fatalf("the reply %+v was taken as whole; want the error's failure", chunks)
			}
			pe := transcripttest.FailureOf(t, err)
			if diff := cmp.Diff(tt.want, want{chunks, pe.Failure, pe.Message}); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
