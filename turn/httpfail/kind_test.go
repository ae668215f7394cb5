package httpfail

import (
	"testing"

	"github.com/batonrt/baton/contract"
)

func TestStatusKind(t *testing.T) {
	tests := []struct {
		status int
		msg    string
		want   contract.FailureKind
	}{
		{429, "slow down", contract.FailRateLimited},
		{500, "", contract.FailServer},
		{503, "upstream unavailable", contract.FailServer},
		{529, "Overloaded", contract.FailServer},
		{401, "Incorrect API key provided", contract.FailAuth},
		{403, "no access", contract.FailAuth},
		{402, "Insufficient credits. Add more using https://openrouter.ai/credits", contract.FailAuth},
		{408, "", contract.FailTimeout},
		{413, "Request exceeds the maximum allowed number of bytes.", contract.FailContextOverflow},
		{400, "This model's maximum context length is 128000 tokens.", contract.FailContextOverflow},
		{400, "prompt is too long: 210000 tokens > 200000 maximum", contract.FailContextOverflow},
		{400, "request (9412 tokens) exceeds the available context size (8192 tokens), try increasing it", contract.FailContextOverflow},
		// llama.cpp's server has answered a prompt too long for its
		// context with status 500; no retry makes it fit.
		{500, "exceed_context_size_error 500 the request exceeds the available context size. try increasing the context size or enable context shift", contract.FailContextOverflow},
		{500, "server_error Context size has been exceeded.", contract.FailContextOverflow},
		{503, "upstream connect error or disconnect/reset before headers", contract.FailServer},
		// A server's failure that speaks of tokens as a rate does is
		// retried: only one that names the context is an overflow.
		{503, "Too many tokens per minute for this deployment; please slow down", contract.FailServer},
		{500, "too many tokens in flight, try again", contract.FailServer},
		{409, "too many tokens queued", contract.FailServer},
		{400, "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", contract.FailContextOverflow},
		{400, "This model's maximum prompt length is 131072 but the request contains 140000 tokens.", contract.FailContextOverflow},
		{400, "The decoder prompt (length 5000) is longer than the maximum model length of 4096.", contract.FailContextOverflow},
		{400, "Input is too long for requested model.", contract.FailContextOverflow},
		{400, "Invalid 'messages[0].name': string too long", contract.FailInvalidRequest},
		{404, "The model `gpt-9` does not exist", contract.FailInvalidRequest},
		{422, "", contract.FailInvalidRequest},
	}
	for _, tt := range tests {
		if got := StatusKind(tt.status, tt.msg); got != tt.want {
			t.Errorf("StatusKind(%d, %q) = %s, want %s", tt.status, tt.msg, got, tt.want)
		}
	}
}

func TestFrameKind(t *testing.T) {
	tests := []struct {
		typ, msg string
		want     contract.FailureKind
	}{
		{"invalid_request_error context_length_exceeded", "too long", contract.FailContextOverflow},
		{"invalid_request_error", "prompt is too long", contract.FailContextOverflow},
		{"rate_limit_error", "slow down", contract.FailRateLimited},
		{"requests rate_limit_exceeded", "", contract.FailRateLimited},
		{"authentication_error", "", contract.FailAuth},
		{"permission_error", "", contract.FailAuth},
		{"invalid_request_error", "bad field", contract.FailInvalidRequest},
		{"server_error", "", contract.FailServer},
		{"overloaded_error", "Overloaded", contract.FailServer},
		{"api_error", "", contract.FailServer},
		// Proxies such as LiteLLM name the kind in CamelCase and give
		// the status as the code.
		{"RateLimitError", "", contract.FailRateLimited},
		{"AuthenticationError", "", contract.FailAuth},
		{"PermissionDeniedError", "", contract.FailAuth},
		{"BadRequestError", "bad field", contract.FailInvalidRequest},
		{"ContextWindowExceededError", "", contract.FailContextOverflow},
		{"InternalServerError", "", contract.FailServer},
		{"ServiceUnavailableError", "", contract.FailServer},
		{"None 429", "slow down", contract.FailRateLimited},
		{"None 400", "bad field", contract.FailInvalidRequest},
		{"None 401", "", contract.FailAuth},
		{"None 503", "", contract.FailServer},
		{"None 1234", "odd", contract.FailStream},
		// A frame typed as a rate limit is one, whatever its message
		// says of tokens.
		{"rate_limit_error", "Tokens per minute limit exceeded - too many tokens processed.", contract.FailRateLimited},
		{"exceed_context_size_error", "", contract.FailContextOverflow},
		{"", "something odd", contract.FailStream},
	}
	for _, tt := range tests {
		if got := FrameKind(tt.typ, tt.msg); got != tt.want {
			t.Errorf("FrameKind(%q, %q) = %s, want %s", tt.typ, tt.msg, got, tt.want)
		}
	}
}
