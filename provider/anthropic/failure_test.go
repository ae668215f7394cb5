package anthropic

import (
	"errors"
	"fmt"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

func TestHTTPErrors(t *testing.T) {
	suite.HTTPErrors(t, []transcripttest.HTTPError{
		{Name: "rate limit seconds", Transcript: "### HTTP 429\nRetry-After: 7\n\n{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}\n", Fail: contract.FailRateLimited, Status: 429, RetryAfter: 7 * time.Second},
		{Name: "rate limit ms wins", Transcript: "### HTTP 429\nRetry-After: 7\nRetry-After-Ms: 1500\n\n{}\n", Fail: contract.FailRateLimited, Status: 429, RetryAfter: 1500 * time.Millisecond},
		{Name: "overloaded", Transcript: "### HTTP 529\n\n{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n", Fail: contract.FailServer, Status: 529},
		{Name: "server plain text", Transcript: "### HTTP 502\nContent-Type: text/html\n\n<html>bad gateway</html>\n", Fail: contract.FailServer, Status: 502},
		{Name: "unauthorized", Transcript: "### HTTP 401\n\n{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}\n", Fail: contract.FailAuth, Status: 401},
		{Name: "forbidden", Transcript: "### HTTP 403\n\n{\"type\":\"error\",\"error\":{\"type\":\"permission_error\",\"message\":\"no access\"}}\n", Fail: contract.FailAuth, Status: 403},
		{Name: "prompt too long", Transcript: "### HTTP 400\n\n{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: 210000 tokens > 200000 maximum\"}}\n", Fail: contract.FailContextOverflow, Status: 400},
		{Name: "request too large", Transcript: "### HTTP 413\n\n{\"type\":\"error\",\"error\":{\"type\":\"request_too_large\",\"message\":\"Request exceeds the maximum allowed number of bytes.\"}}\n", Fail: contract.FailContextOverflow, Status: 413},
		{Name: "other 4xx", Transcript: "### HTTP 404\n\n{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: claude-9\"}}\n", Fail: contract.FailInvalidRequest, Status: 404},
	})
}

// TestInterruptions: a quiet stream ends with the caller's context,
// cancelled final and expired a timeout; a dead server is a network
// failure; breaking out of the range stops the stream.
func TestInterruptions(t *testing.T) { suite.Interruptions(t) }

// TestErrorFrame reads the error events of the Messages API, whether the
// SDK hands them over as an *sdk.Error or as text.
func TestErrorFrame(t *testing.T) {
	const event = `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	tests := []struct {
		name     string
		err      error
		typ, msg string
		ok       bool
	}{
		{"as text", errors.New("received error while streaming: " + event), "overloaded_error", "Overloaded", true},
		{"wrapped text", fmt.Errorf("stream: %w", errors.New("received error while streaming: "+event)), "overloaded_error", "Overloaded", true},
		{"not JSON", errors.New("received error while streaming: upstream died"), "", "upstream died", true},
		{"sdk error", sdkError(t, event), "overloaded_error", "Overloaded", true},
		{"no frame", errors.New("unexpected EOF"), "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ, msg, ok := streamErrorFrame(tt.err)
			if typ != tt.typ || msg != tt.msg || ok != tt.ok {
				t.Errorf("got %q %q %v, want %q %q %v", typ, msg, ok, tt.typ, tt.msg, tt.ok)
			}
		})
	}
}

func sdkError(t *testing.T, raw string) error {
	t.Helper()
	var e sdk.Error
	if err := e.UnmarshalJSON([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	return &e
}
