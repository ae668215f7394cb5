package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// failure turns whatever ended a stream into a *turn.ProviderError. resp is
// the HTTP response when one arrived; its status and headers decide the
// kind, so a body the SDK cannot parse still classifies correctly.
func failure(ctx context.Context, resp *http.Response, err error) *turn.ProviderError {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxFailure(ctxErr)
	}
	if resp != nil && resp.StatusCode >= 400 {
		msg := err.Error()
		return &turn.ProviderError{
			Failure:    statusFailure(resp.StatusCode, msg),
			Status:     resp.StatusCode,
			RetryAfter: retryAfter(resp.Header, time.Now()),
			Message:    "anthropic: request failed",
			Err:        err,
		}
	}
	if typ, msg, ok := streamErrorFrame(err); ok {
		return &turn.ProviderError{Failure: typeFailure(typ, msg), Message: "anthropic: error frame in stream: " + msg, Err: err}
	}
	if resp == nil {
		return &turn.ProviderError{Failure: contract.FailNetwork, Message: "anthropic: request failed", Err: err}
	}
	return &turn.ProviderError{Failure: contract.FailStream, Message: "anthropic: stream broke", Err: err}
}

// ctxFailure classifies a cancelled call: a deadline is a timeout the
// driver may retry; a cancellation is the caller's decision and final.
func ctxFailure(err error) *turn.ProviderError {
	kind := contract.FailOther
	if errors.Is(err, context.DeadlineExceeded) {
		kind = contract.FailTimeout
	}
	return &turn.ProviderError{Failure: kind, Message: "anthropic: call interrupted", Err: err}
}

// statusFailure maps an HTTP error status and the API's message to a kind.
func statusFailure(status int, msg string) contract.FailureKind {
	switch {
	case status == http.StatusTooManyRequests:
		return contract.FailRateLimited
	case status >= 500: // 529 is Anthropic's "overloaded"
		return contract.FailServer
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return contract.FailAuth
	case status == http.StatusRequestTimeout:
		return contract.FailTimeout
	case status == http.StatusRequestEntityTooLarge, contextOverflow(msg):
		return contract.FailContextOverflow
	default:
		return contract.FailInvalidRequest
	}
}

// typeFailure maps the type or code of an in-stream error frame to a kind.
func typeFailure(typ, msg string) contract.FailureKind {
	switch {
	case contextOverflow(typ + " " + msg):
		return contract.FailContextOverflow
	case strings.Contains(typ, "rate_limit"):
		return contract.FailRateLimited
	case strings.Contains(typ, "auth"), strings.Contains(typ, "permission"):
		return contract.FailAuth
	case strings.Contains(typ, "invalid_request"):
		return contract.FailInvalidRequest
	case strings.Contains(typ, "server"), strings.Contains(typ, "overloaded"), strings.Contains(typ, "api_error"):
		return contract.FailServer
	default:
		return contract.FailStream
	}
}

// contextOverflow recognises the ways the Messages API and its proxies say
// the prompt does not fit.
func contextOverflow(msg string) bool {
	msg = strings.ToLower(msg)
	for _, s := range []string{"context_length_exceeded", "context length", "context window", "maximum context", "prompt is too long", "too many tokens"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// streamErrorFrame reads the error event a stream carries in place of
// its next event: {"type":"error","error":{"type":...,"message":...}}.
func streamErrorFrame(err error) (typ, msg string, ok bool) {
	var raw string
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		raw = apiErr.RawJSON()
	} else {
		const prefix = "received error while streaming: "
		s := err.Error()
		i := strings.Index(s, prefix)
		if i < 0 {
			return "", "", false
		}
		raw = s[i+len(prefix):]
	}
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(raw), &e) != nil {
		return "", raw, true
	}
	return e.Error.Type, e.Error.Message, true
}

// retryAfter reads retry-after-ms, then Retry-After as seconds or an HTTP
// date. Absent or unreadable headers give zero.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms >= 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
