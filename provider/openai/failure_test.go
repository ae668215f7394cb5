package openai

import (
	"errors"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

func TestHTTPErrors(t *testing.T) {
	suite.HTTPErrors(t, []transcripttest.HTTPError{
		{Name: "rate limit seconds", Transcript: "### HTTP 429\nRetry-After: 7\n\n{\"error\":{\"message\":\"slow down\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}\n", Fail: contract.FailRateLimited, Status: 429, RetryAfter: 7 * time.Second, Says: "slow down"},
		{Name: "rate limit ms wins", Transcript: "### HTTP 429\nRetry-After: 7\nRetry-After-Ms: 1500\n\n{}\n", Fail: contract.FailRateLimited, Status: 429, RetryAfter: 1500 * time.Millisecond},
		{Name: "server plain text", Transcript: "### HTTP 503\nContent-Type: text/plain\n\nupstream unavailable\n", Fail: contract.FailServer, Status: 503},
		{Name: "overloaded", Transcript: "### HTTP 529\n\n{\"error\":{\"message\":\"Overloaded\",\"type\":\"overloaded_error\"}}\n", Fail: contract.FailServer, Status: 529},
		{Name: "unauthorized", Transcript: "### HTTP 401\n\n{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}\n", Fail: contract.FailAuth, Status: 401, Says: "Incorrect API key provided"},
		{Name: "forbidden", Transcript: "### HTTP 403\n\n{\"error\":{\"message\":\"no access\"}}\n", Fail: contract.FailAuth, Status: 403, Says: "no access"},
		{Name: "context overflow", Transcript: "### HTTP 400\n\n{\"error\":{\"message\":\"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.\",\"type\":\"invalid_request_error\",\"param\":\"messages\",\"code\":\"context_length_exceeded\"}}\n", Fail: contract.FailContextOverflow, Status: 400},
		{Name: "overflow in a top-level error", Transcript: "### HTTP 400\n\n{\"object\":\"error\",\"message\":\"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}\n", Fail: contract.FailContextOverflow, Status: 400},
		{Name: "overflow in plain text", Transcript: "### HTTP 400\nContent-Type: text/plain\n\nmaximum context length exceeded\n", Fail: contract.FailContextOverflow, Status: 400},
		{Name: "llama.cpp overflow", Transcript: "### HTTP 400\n\n{\"error\":{\"code\":400,\"message\":\"request (9412 tokens) exceeds the available context size (8192 tokens), try increasing it\",\"type\":\"exceed_context_size_error\",\"n_prompt_tokens\":9412,\"n_ctx\":8192}}\n", Fail: contract.FailContextOverflow, Status: 400},
		{Name: "other 4xx", Transcript: "### HTTP 404\n\n{\"error\":{\"message\":\"The model `gpt-9` does not exist\",\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}\n", Fail: contract.FailInvalidRequest, Status: 404, Says: "The model `gpt-9` does not exist"},
	})
}

// TestInterruptions: a quiet stream ends with the caller's context,
// cancelled final and expired a timeout; a dead server is a network
// failure; breaking out of the range stops the stream.
func TestInterruptions(t *testing.T) { suite.Interruptions(t) }

// TestErrorFrame reads the frames Chat Completions servers send in place
// of a chunk; a string code joins the type.
func TestErrorFrame(t *testing.T) {
	tests := []struct {
		name, err, typ, msg string
		ok                  bool
	}{
		{"type and code", `received error while streaming: {"message":"too long","type":"invalid_request_error","code":"context_length_exceeded"}`, "invalid_request_error context_length_exceeded", "too long", true},
		{"numeric code", `received error while streaming: {"message":"boom","type":"server_error","code":500}`, "server_error", "boom", true},
		{"not JSON", `received error while streaming: upstream died`, "", "upstream died", true},
		{"no frame", "unexpected EOF", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ, msg, ok := streamErrorFrame(errors.New(tt.err))
			if typ != tt.typ || msg != tt.msg || ok != tt.ok {
				t.Errorf("got %q %q %v, want %q %q %v", typ, msg, ok, tt.typ, tt.msg, tt.ok)
			}
		})
	}
}
